import { promises as fs, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLsTool } from '../../../src/main/tools/ls.ts';
import { createReadFileTool } from '../../../src/main/tools/read-file.ts';
import { createWriteFileTool } from '../../../src/main/tools/write-file.ts';
import { createEditFileTool } from '../../../src/main/tools/edit-file.ts';
import { createGlobTool } from '../../../src/main/tools/glob.ts';
import { createFilesystemTools } from '../../../src/main/tools/index.ts';
import { callEffects, effectKind } from '../../../src/main/tools/call-policy.ts';
import { run, tempWorkspace, writeTree, type TempWorkspace } from './helpers.ts';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
});
afterEach(() => t.cleanup());

describe('createFilesystemTools', () => {
  it('returns the seven tools with the kinds their effects give', () => {
    const tools = createFilesystemTools();
    const args: Record<string, unknown> = { path: 'a', content: '', old_text: 'x', new_text: '', pattern: 'x', command: 'ls' };
    expect(tools.map((x) => `${x.name}:${effectKind(callEffects(x, args)!)}`)).toEqual([
      'ls:read', 'read_file:read', 'write_file:write', 'edit_file:write', 'glob:read', 'grep:read', 'execute:execute',
    ]);
  });
});

describe('ls', () => {
  it('lists entries sorted with type and size', async () => {
    await writeTree(t.root, { 'b.txt': 'hello', 'a/x.txt': '' });
    await fs.symlink('b.txt', path.join(t.root, 'c'));
    const r = await run(createLsTool(), {}, t.ctx);
    expect(JSON.parse(r.text)).toEqual([
      { name: 'a', type: 'dir', size: expect.any(Number) },
      { name: 'b.txt', type: 'file', size: 5 },
      { name: 'c', type: 'symlink', size: 5 },
    ]);
  });

  it('reports errors as messages', async () => {
    await writeTree(t.root, { 'f.txt': 'x' });
    expect(await run(createLsTool(), { path: 'missing' }, t.ctx)).toEqual({ ok: false, text: 'no such file or directory: missing' });
    expect((await run(createLsTool(), { path: 'f.txt' }, t.ctx)).text).toMatch(/not a directory/);
    expect((await run(createLsTool(), { path: '..' }, t.ctx)).text).toBe('path outside workspace');
    expect((await run(createLsTool(), { path: 42 }, t.ctx)).text).toMatch(/invalid arguments for ls: path/);
  });
});

describe('read_file', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

  it('numbers lines cat -n style', async () => {
    await writeTree(t.root, { 'a.txt': 'one\r\ntwo\nthree' });
    expect((await run(createReadFileTool(), { path: 'a.txt' }, t.ctx)).text).toBe('     1\tone\n     2\ttwo\n     3\tthree');
  });

  it('pages with offset and limit and notes remaining lines', async () => {
    await writeTree(t.root, { 'a.txt': lines(10) });
    const r = await run(createReadFileTool(), { path: 'a.txt', offset: 3, limit: 2 }, t.ctx);
    expect(r.text).toBe('     3\tline 3\n     4\tline 4\n\n(more lines remain; continue with offset=5)');
    const last = await run(createReadFileTool(), { path: 'a.txt', offset: 9 }, t.ctx);
    expect(last.text).toBe('     9\tline 9\n    10\tline 10');
    const past = await run(createReadFileTool(), { path: 'a.txt', offset: 50 }, t.ctx);
    expect(past.text).toBe('offset 50 is past the end of the file (10 lines)');
  });

  it('defaults to 2000 lines', async () => {
    await writeTree(t.root, { 'a.txt': lines(2500) });
    const r = await run(createReadFileTool(), { path: 'a.txt' }, t.ctx);
    expect(r.text.split('\n').filter((l) => /^\s+\d+\t/.test(l))).toHaveLength(2000);
    expect(r.text).toMatch(/offset=2001\)$/);
  });

  it('cuts very long lines', async () => {
    await writeTree(t.root, { 'a.txt': 'x'.repeat(100_000) + '\nshort\n' });
    const r = await run(createReadFileTool(), { path: 'a.txt' }, t.ctx);
    const [first, second] = r.text.split('\n');
    expect(first).toBe(`     1\t${'x'.repeat(2000)}… [line cut at 2000 characters]`);
    expect(second).toBe('     2\tshort');
  });

  it('does not dump binary files', async () => {
    await writeTree(t.root, { 'b.bin': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]) });
    expect((await run(createReadFileTool(), { path: 'b.bin' }, t.ctx)).text).toBe('binary file (8 bytes), not shown');
  });

  it('refuses a huge file without offset/limit but pages it with them', async () => {
    const file = path.join(t.root, 'huge.txt');
    const fh = await fs.open(file, 'w');
    await fh.write('first line\n' + 'filler line\n'.repeat(1000));
    await fh.truncate(11 * 1024 * 1024); // sparse tail: NULs only beyond the first 8 KB
    await fh.close();
    const whole = await run(createReadFileTool(), { path: 'huge.txt' }, t.ctx);
    expect(whole.ok).toBe(false);
    expect(whole.text).toMatch(/too large.*offset and limit/);
    const part = await run(createReadFileTool(), { path: 'huge.txt', limit: 1 }, t.ctx);
    expect(part.text).toBe('     1\tfirst line\n\n(more lines remain; continue with offset=2)');
  });

  it('handles empty files, directories, missing files and bad args', async () => {
    await writeTree(t.root, { 'e.txt': '', 'd/x': 'x' });
    expect((await run(createReadFileTool(), { path: 'e.txt' }, t.ctx)).text).toBe('(empty file)');
    expect((await run(createReadFileTool(), { path: 'd' }, t.ctx)).text).toMatch(/is a directory/);
    expect((await run(createReadFileTool(), { path: 'nope.txt' }, t.ctx)).text).toBe('no such file or directory: nope.txt');
    expect((await run(createReadFileTool(), { path: 'e.txt', offset: 0 }, t.ctx)).text).toMatch(/invalid arguments for read_file: offset/);
    expect((await run(createReadFileTool(), {}, t.ctx)).ok).toBe(false);
  });

  it('leaves no descriptor open, whatever the read ends with', async () => {
    const openFds = () => readdirSync('/proc/self/fd').length;
    await writeTree(t.root, { 'small.txt': lines(10), 'b.bin': Buffer.from([1, 0, 2]), 'big.txt': lines(40_000), 'edit.txt': lines(3) });
    await fs.link(path.join(t.root, 'small.txt'), path.join(t.root, 'linked.txt'));
    const before = openFds();
    const reads = [
      { path: 'small.txt' },
      { path: 'b.bin' },
      { path: 'big.txt', offset: 39_990, limit: 5 }, // streamed (past 256 KiB), stopped mid-file
      { path: 'big.txt', offset: 1, limit: 1 },
      { path: 'linked.txt' }, // refused after the open: a second hard link
    ];
    const texts = [];
    for (const args of reads) texts.push((await run(createReadFileTool(), args, t.ctx)).text);
    expect(texts[2]).toBe(['39990', '39991', '39992', '39993', '39994'].map((n) => `${n.padStart(6)}\tline ${n}`).join('\n') + '\n\n(more lines remain; continue with offset=39995)');
    expect(texts[4]).toMatch(/hard links/);
    const edited = await run(createEditFileTool(), { path: 'edit.txt', old_text: 'line 1\n', new_text: 'first\n' }, t.ctx);
    expect(edited.ok).toBe(true);
    expect(await fs.readFile(path.join(t.root, 'edit.txt'), 'utf8')).toBe('first\nline 2\nline 3\n');
    expect(openFds()).toBe(before);
  });
});

describe('write_file', () => {
  it('creates parents, returns JSON and records the file', async () => {
    const recorded: Array<[string, string]> = [];
    const tool = createWriteFileTool({ onFileChange: (p, c) => recorded.push([p, c]) });
    const r = await run(tool, { path: 'src/deep/a.txt', content: 'héllo' }, t.ctx);
    expect(JSON.parse(r.text)).toEqual({ path: 'src/deep/a.txt', bytes_written: 6 });
    expect(await fs.readFile(path.join(t.root, 'src/deep/a.txt'), 'utf8')).toBe('héllo');
    expect(recorded).toEqual([['src/deep/a.txt', 'héllo']]);
  });

  it('overwrites keeping the mode and refuses directories', async () => {
    await writeTree(t.root, { 'run.sh': 'old', 'dir/x': '' });
    await fs.chmod(path.join(t.root, 'run.sh'), 0o755);
    await run(createWriteFileTool(), { path: 'run.sh', content: 'new' }, t.ctx);
    expect((await fs.stat(path.join(t.root, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect((await run(createWriteFileTool(), { path: 'dir', content: 'x' }, t.ctx)).text).toBe('is a directory: dir');
    expect((await run(createWriteFileTool(), { path: 'x' }, t.ctx)).text).toMatch(/invalid arguments for write_file: content/);
  });

  it('never writes through a hard link to an outside file (the name is replaced, the inode kept)', async () => {
    await writeTree(t.outside, { 'victim.txt': 'original' });
    await fs.link(path.join(t.outside, 'victim.txt'), path.join(t.root, 'hard.txt'));
    await run(createWriteFileTool(), { path: 'hard.txt', content: 'changed' }, t.ctx);
    expect(await fs.readFile(path.join(t.outside, 'victim.txt'), 'utf8')).toBe('original');
    expect(await fs.readFile(path.join(t.root, 'hard.txt'), 'utf8')).toBe('changed');
  });

  it('writes through an in-workspace symlink to its target', async () => {
    await writeTree(t.root, { 'real.txt': 'a' });
    await fs.symlink('real.txt', path.join(t.root, 'alias.txt'));
    await run(createWriteFileTool(), { path: 'alias.txt', content: 'b' }, t.ctx);
    expect(await fs.readFile(path.join(t.root, 'real.txt'), 'utf8')).toBe('b');
    expect((await fs.lstat(path.join(t.root, 'alias.txt'))).isSymbolicLink()).toBe(true);
  });
});

describe('edit_file', () => {
  it('replaces the first occurrence only and records the new content', async () => {
    await writeTree(t.root, { 'a.txt': 'foo bar foo $& end' });
    await fs.chmod(path.join(t.root, 'a.txt'), 0o640);
    const recorded: string[] = [];
    const tool = createEditFileTool({ onFileChange: (_p, c) => recorded.push(c) });
    const r = await run(tool, { path: 'a.txt', old_text: 'foo', new_text: '$&X' }, t.ctx);
    expect(r.text).toBe('Edited a.txt: replaced 1 occurrence (1 more occurrence left unchanged)');
    expect(await fs.readFile(path.join(t.root, 'a.txt'), 'utf8')).toBe('$&X bar foo $& end');
    expect(recorded).toEqual(['$&X bar foo $& end']);
    expect((await fs.stat(path.join(t.root, 'a.txt'))).mode & 0o777).toBe(0o640);
    expect((await fs.readdir(t.root)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('fails with the exact not-found message and on empty old_text', async () => {
    await writeTree(t.root, { 'a.txt': 'abc' });
    expect(await run(createEditFileTool(), { path: 'a.txt', old_text: 'zzz', new_text: 'y' }, t.ctx)).toEqual({
      ok: false,
      text: 'old_text not found in file',
    });
    expect((await run(createEditFileTool(), { path: 'a.txt', old_text: '', new_text: 'y' }, t.ctx)).text).toMatch(/old_text must not be empty/);
    expect((await run(createEditFileTool(), { path: 'b.txt', old_text: 'a', new_text: 'y' }, t.ctx)).text).toBe('no such file or directory: b.txt');
  });

  it('keeps bytes outside the edit (BOM, CRLF, Latin-1) and refuses binaries', async () => {
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(' one\r\ntwo\r\n')]);
    await writeTree(t.root, { 'a.txt': original, 'b.bin': Buffer.from([1, 0, 2]) });
    await run(createEditFileTool(), { path: 'a.txt', old_text: 'one', new_text: 'ONE' }, t.ctx);
    const expected = Buffer.from(original.toString('latin1').replace('one', 'ONE'), 'latin1');
    expect(await fs.readFile(path.join(t.root, 'a.txt'))).toEqual(expected);
    expect((await run(createEditFileTool(), { path: 'b.bin', old_text: 'a', new_text: 'b' }, t.ctx)).text).toMatch(/binary/);
  });

  it('is denied outside the workspace', async () => {
    await writeTree(t.outside, { 'x.txt': 'abc' });
    await fs.symlink(path.join(t.outside, 'x.txt'), path.join(t.root, 'x.txt'));
    expect((await run(createEditFileTool(), { path: 'x.txt', old_text: 'a', new_text: 'b' }, t.ctx)).text).toBe('path outside workspace');
    expect(await fs.readFile(path.join(t.outside, 'x.txt'), 'utf8')).toBe('abc');
  });
});

describe('glob', () => {
  beforeEach(async () => {
    await writeTree(t.root, {
      'a.ts': '', 'b.js': '', 'src/c.ts': '', 'src/d.tsx': '', 'src/deep/e.ts': '', 'test/1.txt': '', 'test/22.txt': '',
      'node_modules/pkg/index.ts': '', '.git/config': '', '.hidden.ts': '',
    });
  });
  const files = async (args: Record<string, unknown>) => JSON.parse((await run(createGlobTool(), args, t.ctx)).text).files as string[];

  it('supports **, *, ?, {a,b}', async () => {
    expect(await files({ pattern: '**/*.ts' })).toEqual(['.hidden.ts', 'a.ts', 'src/c.ts', 'src/deep/e.ts']);
    expect(await files({ pattern: '*.ts' })).toEqual(['.hidden.ts', 'a.ts']);
    expect(await files({ pattern: 'src/*.{ts,tsx}' })).toEqual(['src/c.ts', 'src/d.tsx']);
    expect(await files({ pattern: 'test/?.txt' })).toEqual(['test/1.txt']);
    expect(await files({ pattern: 'src/**' })).toEqual(['src/c.ts', 'src/d.tsx', 'src/deep/e.ts']);
  });

  it('skips .git and node_modules unless named, and honours path', async () => {
    expect(await files({ pattern: 'node_modules/**/*.ts' })).toEqual(['node_modules/pkg/index.ts']);
    expect(await files({ pattern: '.git/*' })).toEqual(['.git/config']);
    expect(await files({ pattern: '**/*.ts', path: 'src' })).toEqual(['src/c.ts', 'src/deep/e.ts']);
  });

  it('caps results with a truncated flag', async () => {
    await writeTree(t.root, Object.fromEntries(Array.from({ length: 1005 }, (_, i) => [`many/f${i}.txt`, ''])));
    const out = JSON.parse((await run(createGlobTool(), { pattern: 'many/*.txt' }, t.ctx)).text);
    expect(out.files).toHaveLength(1000);
    expect(out.truncated).toBe(true);
  });

  it('rejects escaping patterns and paths', async () => {
    expect((await run(createGlobTool(), { pattern: '../*' }, t.ctx)).text).toMatch(/must be relative/);
    expect((await run(createGlobTool(), { pattern: '/etc/*' }, t.ctx)).text).toMatch(/must be relative/);
    expect((await run(createGlobTool(), { pattern: '*', path: '../outside' }, t.ctx)).text).toBe('path outside workspace');
    await fs.symlink(t.outside, path.join(t.root, 'out'));
    expect((await run(createGlobTool(), { pattern: 'out/*' }, t.ctx)).text).toBe('path outside workspace');
    expect(await files({ pattern: 'missing/*.ts' })).toEqual([]);
  });
});

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrepTool } from '../../../src/main/tools/grep.ts';
import { findRipgrep } from '../../../src/main/tools/grep-ripgrep.ts';
import { run, tempWorkspace, writeTree, type TempWorkspace } from './helpers.ts';

const hasRg = findRipgrep() !== null;
let t: TempWorkspace;

beforeAll(async () => {
  t = await tempWorkspace();
  await writeTree(t.root, {
    '.gitignore': '# comment\n*.log\nbuild/\n/top-only.txt\n!keep.log\ndocs/**/*.gen.md\ncache?/\n',
    'src/app.ts': 'const needle = 1;\nfunction other() {}\n// NEEDLE upper\n',
    'src/util.js': 'export const needle = "x";\r\nline two\r\n',
    'src/.hidden.ts': 'needle in hidden file\n',
    'src/nested/.gitignore': 'secret.ts\n!important.log\n',
    'src/nested/secret.ts': 'needle secret\n',
    'src/nested/visible.ts': 'needle visible\n\nneedle again\n',
    'src/nested/important.log': 'needle important log\n',
    'src/nested/top-only.txt': 'needle not anchored here\n',
    'top-only.txt': 'needle top only\n',
    'debug.log': 'needle in log\n',
    'keep.log': 'needle kept log\n',
    'build/out.js': 'needle build\n',
    'lib/build': 'needle file named build\n',
    'docs/a/b.gen.md': 'needle generated\n',
    'docs/a/b.md': 'needle doc\n',
    'cache1/x.txt': 'needle cache\n',
    'node_modules/dep/index.js': 'needle dep\n',
    '.git/HEAD': 'needle git\n',
    'bin/blob.bin': Buffer.concat([Buffer.from('needle '), Buffer.from([0, 1, 2]), Buffer.from(' needle\n')]),
    'long.txt': `${'a'.repeat(500)} needle ${'b'.repeat(500)}\n`,
    'many.txt': Array.from({ length: 30 }, (_, i) => `needle ${i}`).join('\n'),
    'no-newline.txt': 'first\nlast needle',
  });
  await fs.symlink('src/app.ts', path.join(t.root, 'link.ts'));
});
afterAll(() => t.cleanup());

async function both(args: Record<string, unknown>): Promise<{ js: unknown; rg: unknown }> {
  const js = await run(createGrepTool({ useRipgrep: false, workers: false }), args, t.ctx);
  const threaded = await run(createGrepTool({ useRipgrep: false, workers: true }), args, t.ctx);
  expect(threaded).toEqual(js);
  const rg = hasRg ? await run(createGrepTool({ useRipgrep: true }), args, t.ctx) : js;
  return { js: js.ok ? JSON.parse(js.text) : js, rg: rg.ok ? JSON.parse(rg.text) : rg };
}

describe('grep (rg and JS fallback agree)', () => {
  it('honours .gitignore, skips .git, binaries and symlinks, searches hidden files', async () => {
    const { js, rg } = await both({ pattern: 'needle', max_results: 500 });
    expect(js).toEqual(rg);
    const files = [...new Set((js as { matches: Array<{ file: string }> }).matches.map((m) => m.file))];
    expect(files).toEqual([
      'docs/a/b.md',
      'keep.log',
      'lib/build',
      'long.txt',
      'many.txt',
      'no-newline.txt',
      'node_modules/dep/index.js',
      'src/.hidden.ts',
      'src/app.ts',
      'src/nested/important.log',
      'src/nested/top-only.txt',
      'src/nested/visible.ts',
      'src/util.js',
    ]);
  });

  it('returns file, line and trimmed text sorted by file then line', async () => {
    const { js, rg } = await both({ pattern: 'needle', path: 'src' });
    expect(js).toEqual(rg);
    expect(js).toEqual({
      matches: [
        { file: 'src/.hidden.ts', line: 1, text: 'needle in hidden file' },
        { file: 'src/app.ts', line: 1, text: 'const needle = 1;' },
        { file: 'src/nested/important.log', line: 1, text: 'needle important log' },
        { file: 'src/nested/top-only.txt', line: 1, text: 'needle not anchored here' },
        { file: 'src/nested/visible.ts', line: 1, text: 'needle visible' },
        { file: 'src/nested/visible.ts', line: 3, text: 'needle again' },
        { file: 'src/util.js', line: 1, text: 'export const needle = "x";' },
      ],
      truncated: false,
    });
  });

  it('handles a named file, a binary file and paths with colons', async () => {
    await writeTree(t.root, { 'odd/a:b.txt': 'x needle: y\n' });
    const a = await both({ pattern: 'needle', path: 'odd' });
    expect(a.js).toEqual(a.rg);
    expect(a.js).toEqual({ matches: [{ file: 'odd/a:b.txt', line: 1, text: 'x needle: y' }], truncated: false });
    const b = await both({ pattern: 'needle', path: 'bin/blob.bin' });
    expect(b.js).toEqual(b.rg);
    expect(b.js).toEqual({ matches: [], truncated: false });
    const c = await both({ pattern: 'needle', path: 'src/app.ts', glob: 'nested/*.ts' });
    expect(c.js).toEqual(c.rg);
    await fs.rm(path.join(t.root, 'odd'), { recursive: true });
  });

  it('cuts long lines to 300 characters', async () => {
    const { js, rg } = await both({ pattern: 'needle', path: 'long.txt' });
    expect(js).toEqual(rg);
    const m = (js as { matches: Array<{ text: string }> }).matches[0]!;
    expect(m.text).toHaveLength(301);
  });

  it('supports case-insensitive search and regexes', async () => {
    const a = await both({ pattern: 'NEEDLE', case_insensitive: true, path: 'src/app.ts' });
    expect(a.js).toEqual(a.rg);
    expect((a.js as { matches: unknown[] }).matches).toHaveLength(2);
    const b = await both({ pattern: '^last\\s+\\w+$', path: 'no-newline.txt' });
    expect(b.js).toEqual(b.rg);
    expect(b.js).toEqual({ matches: [{ file: 'no-newline.txt', line: 2, text: 'last needle' }], truncated: false });
    const c = await both({ pattern: 'two$' });
    expect(c.js).toEqual(c.rg);
  });

  it('filters files by glob (name or path)', async () => {
    const a = await both({ pattern: 'needle', glob: '*.ts' });
    expect(a.js).toEqual(a.rg);
    expect([...new Set((a.js as { matches: Array<{ file: string }> }).matches.map((m) => m.file))]).toEqual([
      'src/.hidden.ts', 'src/app.ts', 'src/nested/visible.ts',
    ]);
    const b = await both({ pattern: 'needle', glob: 'src/nested/*.ts' });
    expect(b.js).toEqual(b.rg);
    expect((b.js as { matches: unknown[] }).matches).toHaveLength(2);
  });

  it('caps results, keeping the first in order, with truncated', async () => {
    const { js, rg } = await both({ pattern: 'needle', max_results: 5 });
    expect(js).toEqual(rg);
    expect(js).toMatchObject({ truncated: true });
    expect((js as { matches: Array<{ file: string }> }).matches.map((m) => m.file)).toEqual([
      'docs/a/b.md', 'keep.log', 'lib/build', 'long.txt', 'many.txt',
    ]);
  });

  it('flags truncation inside one file and at exactly max_results', async () => {
    const a = await both({ pattern: 'needle', path: 'many.txt', max_results: 10 });
    expect(a.js).toEqual(a.rg);
    expect(a.js).toMatchObject({ truncated: true });
    const b = await both({ pattern: 'needle', path: 'many.txt', max_results: 30 });
    expect(b.js).toEqual(b.rg);
    expect(b.js).toMatchObject({ truncated: false });
    const all = await both({ pattern: 'needle', max_results: 500 });
    const total = (all.js as { matches: unknown[] }).matches.length;
    const c = await both({ pattern: 'needle', max_results: total });
    expect(c.js).toEqual(c.rg);
    expect(c.js).toMatchObject({ truncated: false });
    const d = await both({ pattern: 'needle', max_results: total - 1 });
    expect(d.js).toEqual(d.rg);
    expect(d.js).toMatchObject({ truncated: true });
  });

  it('skips a file over 50 MB, whatever the engine, and keeps one at the limit', async () => {
    const line = Buffer.from(`needle big\n${'x'.repeat(1023)}\n`);
    const body = (bytes: number) => Buffer.concat([line, Buffer.alloc(bytes - line.length, 'y')]);
    await fs.mkdir(path.join(t.root, 'sized'));
    await fs.writeFile(path.join(t.root, 'sized/over.txt'), body(50 * 1024 * 1024 + 1));
    await fs.writeFile(path.join(t.root, 'sized/at.txt'), body(50 * 1024 * 1024));
    try {
      const { js, rg } = await both({ pattern: 'needle big', path: 'sized' });
      expect(js).toEqual(rg);
      expect(js).toEqual({ matches: [{ file: 'sized/at.txt', line: 1, text: 'needle big' }], truncated: false });
    } finally {
      await fs.rm(path.join(t.root, 'sized'), { recursive: true });
    }
  });

  it('rejects with an abort when the run is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const ctx = { ...t.ctx, signal: controller.signal };
    for (const tool of [createGrepTool({ useRipgrep: false, workers: true }), createGrepTool({ useRipgrep: false, workers: false }), createGrepTool()]) {
      await expect(tool.execute({ pattern: 'needle' }, ctx)).rejects.toMatchObject({ name: 'AbortError' });
    }
  });

  it('reports bad input as errors', async () => {
    const tool = createGrepTool({ useRipgrep: false });
    expect((await run(tool, { pattern: '(' }, t.ctx)).text).toMatch(/invalid regular expression/);
    expect((await run(tool, { pattern: 'x', path: '../outside' }, t.ctx)).text).toBe('path outside workspace');
    expect((await run(tool, { pattern: 'x', path: 'missing' }, t.ctx)).text).toBe('no such file or directory: missing');
    expect((await run(tool, { pattern: 'x', max_results: 0 }, t.ctx)).text).toMatch(/invalid arguments for grep/);
  });

  it.skipIf(!hasRg)('falls back to JS for a regex only JavaScript understands', async () => {
    const r = await run(createGrepTool(), { pattern: '(?<=const )needle', path: 'src/app.ts' }, t.ctx);
    expect(JSON.parse(r.text)).toEqual({ matches: [{ file: 'src/app.ts', line: 1, text: 'const needle = 1;' }], truncated: false });
  });
});

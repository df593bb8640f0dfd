/**
 * File safety against a racing local process and hostile files: a folder swapped for a symlink
 * mid-call never redirects a read or a write, FIFOs and hard links are refused, protected paths are
 * decided on the real path, a hung tool ends on cancel, and a catastrophic grep pattern times out
 * without blocking the main thread.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs, linkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReadFileTool } from '../../../src/main/tools/read-file.ts';
import { createWriteFileTool } from '../../../src/main/tools/write-file.ts';
import { createEditFileTool } from '../../../src/main/tools/edit-file.ts';
import { createGrepTool } from '../../../src/main/tools/grep.ts';
import { createWorkspace } from '../../../src/main/tools/path-guard.ts';
import { alwaysAskReason } from '../../../src/main/tools/risk.ts';
import { defineTool } from '../../../src/main/tools/types.ts';
import { ToolRegistry } from '../../../src/main/tools/registry.ts';
import { dispatchToolCall } from '../../../src/main/agent/tool-dispatch.ts';
import { z } from 'zod';
import { run, tempWorkspace, writeTree, type TempWorkspace } from './helpers.ts';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
});
afterEach(() => t.cleanup());

const listAll = async (dir: string): Promise<string[]> =>
  (await fs.readdir(dir, { recursive: true })).map(String).sort();

describe('a folder swapped for a symlink mid-call', () => {
  it('never lets write_file land outside or read_file read outside (300 racing calls each)', async () => {
    await writeTree(t.root, { 'dir/f.txt': 'inside' });
    await writeTree(t.outside, { 'f.txt': 'OUTSIDE-CANARY' });
    const dir = path.join(t.root, 'dir');
    const parked = path.join(t.root, 'dir-real');
    let stop = false;
    // The writer may re-create a missing `dir` in between, so every step of the attacker is best effort
    // (`fs.rm` removes a symlink itself, never what it points to).
    const attempt = (p: Promise<unknown>) => p.catch(() => undefined);
    const clear = () => attempt(fs.rm(dir, { recursive: true, force: true }));
    const tick = () => new Promise((r) => setImmediate(r));
    const swapper = (async () => {
      while (!stop) {
        await attempt(fs.rename(dir, parked));
        await clear();
        await attempt(fs.symlink(t.outside, dir));
        await tick();
        await clear();
        await attempt(fs.rename(parked, dir));
        await tick();
      }
    })();
    const write = createWriteFileTool();
    const read = createReadFileTool();
    const reads: string[] = [];
    for (let i = 0; i < 300; i++) {
      await run(write, { path: 'dir/f.txt', content: `written ${i}` }, t.ctx);
      await run(write, { path: 'dir/new.txt', content: `new ${i}` }, t.ctx);
      reads.push((await run(read, { path: 'dir/f.txt' }, t.ctx)).text);
    }
    stop = true;
    await swapper;
    expect(await listAll(t.outside)).toEqual(['f.txt']);
    expect(await fs.readFile(path.join(t.outside, 'f.txt'), 'utf8')).toBe('OUTSIDE-CANARY');
    expect(reads.filter((r) => r.includes('OUTSIDE-CANARY'))).toEqual([]);
    // Once the race is over the same calls work again: the refusals came from the race, not the tools.
    if (
      !(await fs.lstat(dir).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    ) {
      await clear();
      await attempt(fs.rename(parked, dir));
    }
    await run(write, { path: 'dir/f.txt', content: 'written after' }, t.ctx);
    expect((await run(read, { path: 'dir/f.txt' }, t.ctx)).text).toContain('written after');
  }, 60_000);
});

describe('non-regular files and hard links', () => {
  it('read_file and edit_file refuse a FIFO at once instead of hanging', async () => {
    execFileSync('mkfifo', [path.join(t.root, 'pipe')]);
    const started = Date.now();
    const read = await run(createReadFileTool(), { path: 'pipe' }, t.ctx);
    const edit = await run(
      createEditFileTool(),
      { path: 'pipe', old_text: 'a', new_text: 'b' },
      t.ctx,
    );
    expect(read).toEqual({ ok: false, text: expect.stringContaining('named pipe (FIFO)') });
    expect(edit).toEqual({ ok: false, text: expect.stringContaining('named pipe (FIFO)') });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses a hard link to an outside file unless the user allows hard links', async () => {
    await writeTree(t.outside, { 'secret.txt': 'OUTSIDE-CANARY' });
    linkSync(path.join(t.outside, 'secret.txt'), path.join(t.root, 'linked.txt'));
    const read = await run(createReadFileTool(), { path: 'linked.txt' }, t.ctx);
    expect(read.ok).toBe(false);
    expect(read.text).toContain('hard links');
    const edit = await run(
      createEditFileTool(),
      { path: 'linked.txt', old_text: 'OUTSIDE', new_text: 'x' },
      t.ctx,
    );
    expect(edit.text).toContain('hard links');
    expect(await fs.readFile(path.join(t.outside, 'secret.txt'), 'utf8')).toBe('OUTSIDE-CANARY');

    const allowing = await createWorkspace(t.root, { allowHardLinks: true });
    const allowed = await run(
      createReadFileTool(),
      { path: 'linked.txt' },
      { ...t.ctx, workspace: allowing },
    );
    expect(allowed.text).toContain('OUTSIDE-CANARY');
  });
});

describe('grep and hostile files', () => {
  it('shows no line of a hard link to an outside file and refuses a FIFO named directly, with both engines', async () => {
    await writeTree(t.outside, { 'secret.txt': 'OUTSIDE-CANARY' });
    await writeTree(t.root, { 'a.txt': 'CANARY inside' });
    linkSync(path.join(t.outside, 'secret.txt'), path.join(t.root, 'linked.txt'));
    execFileSync('mkfifo', [path.join(t.root, 'pipe')]);
    for (const tool of [createGrepTool(), createGrepTool({ useRipgrep: false })]) {
      const all = await run(tool, { pattern: 'CANARY' }, t.ctx);
      expect(JSON.parse(all.text).matches).toEqual([
        { file: 'a.txt', line: 1, text: 'CANARY inside' },
      ]);
      const pipe = await run(tool, { pattern: 'x', path: 'pipe' }, t.ctx);
      expect(pipe).toEqual({ ok: false, text: 'not a regular file or folder: pipe' });
    }
  });

  it('searches a subfolder at once when the workspace has a FIFO for a .gitignore (JS engine)', async () => {
    await writeTree(t.root, { 'src/a.txt': 'CANARY inside' });
    execFileSync('mkfifo', [path.join(t.root, '.gitignore')]);
    const found = await run(
      createGrepTool({ useRipgrep: false }),
      { pattern: 'CANARY', path: 'src' },
      t.ctx,
    );
    expect(JSON.parse(found.text).matches).toEqual([
      { file: 'src/a.txt', line: 1, text: 'CANARY inside' },
    ]);
  });

  it('ends a ripgrep search that waits on a FIFO .gitignore at its deadline, saying why', async () => {
    await writeTree(t.root, { 'src/a.txt': 'CANARY inside' });
    execFileSync('mkfifo', [path.join(t.root, '.gitignore')]);
    const found = await run(
      createGrepTool({ ripgrepDeadlineMs: 300 }),
      { pattern: 'CANARY', path: 'src' },
      t.ctx,
    );
    expect(found.ok).toBe(true);
    expect(JSON.parse(found.text)).toMatchObject({
      truncated: true,
      stopped:
        'ripgrep had not finished after 0.3 s; these are the matches found until then (narrow path or glob)',
    });
  });
});

describe('protected paths on the real path', () => {
  const write = (p: string) =>
    alwaysAskReason(createWriteFileTool(), { path: p, content: 'x' }, t.root);

  it('a `cfg -> .claude` symlink does not hide Claude Code settings', async () => {
    await fs.mkdir(path.join(t.root, '.claude'));
    await fs.symlink('.claude', path.join(t.root, 'cfg'));
    expect(write('cfg/settings.json')).toMatch(/Claude Code hook configuration/);
    expect(write('notes/settings.json')).toBeUndefined();
  });

  it('/proc/self/root/<workspace>/.git/hooks is .git/hooks', async () => {
    await fs.mkdir(path.join(t.root, '.git', 'hooks'), { recursive: true });
    expect(write(`/proc/self/root${t.root}/.git/hooks/pre-commit`)).toMatch(/inside \.git/);
  });
});

describe('a tool call that never returns', () => {
  it('ends when the run is cancelled', async () => {
    const hang = defineTool({
      name: 'hang',
      description: 'never returns',
      parameters: z.object({}),
      effects: () => ({}),
      execute: () => new Promise<string>(() => undefined),
    });
    const controller = new AbortController();
    const tools = new ToolRegistry();
    tools.register(hang);
    const result = dispatchToolCall(
      { id: 'c1', name: 'hang', args: {} },
      { tools, context: () => ({ ...t.ctx, signal: controller.signal }) },
    );
    setTimeout(() => controller.abort(), 50);
    await expect(result).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('grep with a pattern ripgrep cannot take', () => {
  it('stops at the deadline with an error while the main thread keeps running', async () => {
    await writeTree(t.root, { 'big.txt': `${'a'.repeat(40_000)}\n` });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const started = Date.now();
    // Look-around makes rg refuse the pattern; nested quantifiers make it catastrophic in JavaScript.
    const r = await run(
      createGrepTool({ deadlineMs: 1_000 }),
      { pattern: '(?=(a|aa)*)(a|aa)*b' },
      t.ctx,
    );
    clearInterval(ticker);
    const elapsed = Date.now() - started;
    expect(r.ok).toBe(false);
    expect(r.text).toContain('grep stopped after 1 s');
    expect(elapsed).toBeLessThan(5_000);
    expect(ticks).toBeGreaterThan(elapsed / 20 / 4); // the timer kept firing while the regex ran
  });
});

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryMemo } from '../../../src/main/memory/memo.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Writes `text` with an mtime `secondsAgo` in the past, so the memo may keep what it read. */
function writeOld(path: string, text: string, secondsAgo: number): void {
  writeFileSync(path, text);
  const t = Date.now() / 1000 - secondsAgo;
  utimesSync(path, t, t);
}

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'wb-memo-'));
  dirs.push(root);
  const home = join(root, 'home');
  const workspace = join(root, 'ws');
  mkdirSync(home);
  mkdirSync(join(workspace, 'src'), { recursive: true });
  return { root, home, workspace };
}

describe('memory memo', () => {
  it('keeps the memory while nothing changed and loads again after an edit, a new file or a new folder', async () => {
    const { home, workspace } = setup();
    writeOld(join(workspace, 'AGENTS.md'), 'use tabs', 60);
    // A file's ctime cannot be set back, so the test lowers the racy window instead of waiting 2 s.
    const memo = createMemoryMemo({ racyMs: 0 });
    const opts = { home, workspace, folders: [] as string[] };
    const first = await memo.load(opts);
    expect(first.text).toBe('use tabs');
    expect(await memo.load(opts)).toBe(first);

    writeOld(join(workspace, 'AGENTS.md'), 'use spaces', 30);
    expect((await memo.load(opts)).text).toBe('use spaces');

    writeOld(join(workspace, 'CLAUDE.local.md'), 'my notes', 30);
    expect((await memo.load(opts)).text).toBe('use spaces\n\n---\n\nmy notes');

    writeOld(join(workspace, 'src', 'AGENTS.md'), 'src rules', 30);
    const withFolder = await memo.load({ ...opts, folders: [join(workspace, 'src')] });
    expect(withFolder.text).toContain('src rules');
  });

  it('sees a file edited just now even when its size and second did not change', async () => {
    const { home, workspace } = setup();
    const file = join(workspace, 'AGENTS.md');
    writeFileSync(file, 'aaaa');
    const memo = createMemoryMemo();
    const opts = { home, workspace };
    expect((await memo.load(opts)).text).toBe('aaaa');
    writeFileSync(file, 'bbbb');
    expect((await memo.load(opts)).text).toBe('bbbb');
  });

  it('refuses a memory file swapped for a symlink to outside the workspace', async () => {
    const { root, home, workspace } = setup();
    writeOld(join(workspace, 'CLAUDE.md'), 'fine', 60);
    writeOld(join(root, 'secret.txt'), 'secret', 60);
    const memo = createMemoryMemo({ racyMs: 0 });
    const opts = { home, workspace };
    expect((await memo.load(opts)).text).toBe('fine');
    rmSync(join(workspace, 'CLAUDE.md'));
    symlinkSync(join(root, 'secret.txt'), join(workspace, 'CLAUDE.md'));
    const after = await memo.load(opts);
    expect(after.text).not.toContain('secret');
    expect(after.text).not.toContain('fine');
    expect(after.sources.find((src) => src.path.endsWith('CLAUDE.md'))?.refused).toMatch(
      /^refused/,
    );
  });
});

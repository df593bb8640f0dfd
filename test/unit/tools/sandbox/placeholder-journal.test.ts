/**
 * The mount points bubblewrap leaves for missing protected paths (`.claude`, `.workbench`): removed
 * when the command ends, and — when the workbench was killed before that — by the next one.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  notePlaceholders,
  sweepPlaceholders,
} from '../../../../src/main/tools/sandbox/placeholder-journal.ts';

let base: string;
let home: string;
let ws: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'wb-placeholders-'));
  home = join(base, 'home');
  ws = join(base, 'ws');
  mkdirSync(ws, { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** A pid that belonged to a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

it('the command cleanup removes its placeholders and its note', async () => {
  writeFileSync(join(ws, '.claude'), '');
  const done = await notePlaceholders(home, [join(ws, '.claude')]);
  expect(readdirSync(join(home, 'placeholders'))).toHaveLength(1);
  await done();
  expect(existsSync(join(ws, '.claude'))).toBe(false);
  expect(readdirSync(join(home, 'placeholders'))).toHaveLength(0);
});

it("a killed process's empty placeholders are swept; a file the user filled since is kept", async () => {
  writeFileSync(join(ws, '.workbench'), '');
  writeFileSync(join(ws, '.claude'), 'my notes');
  mkdirSync(join(home, 'placeholders'), { recursive: true });
  const note = join(home, 'placeholders', 'dead.json');
  writeFileSync(
    note,
    JSON.stringify({
      pid: deadPid(),
      paths: [join(ws, '.workbench'), join(ws, '.claude')],
    }),
  );
  await sweepPlaceholders(home);
  expect(existsSync(join(ws, '.workbench'))).toBe(false);
  expect(readFileSync(join(ws, '.claude'), 'utf8')).toBe('my notes');
  expect(existsSync(note)).toBe(false);
});

it("a live process's placeholders are left alone", async () => {
  writeFileSync(join(ws, '.workbench'), '');
  mkdirSync(join(home, 'placeholders'), { recursive: true });
  writeFileSync(
    join(home, 'placeholders', 'live.json'),
    JSON.stringify({ pid: process.pid, paths: [join(ws, '.workbench')] }),
  );
  await sweepPlaceholders(home);
  expect(existsSync(join(ws, '.workbench'))).toBe(true);
});

it("a link on the way to a protected path that a killed process's command replaced is put back by the sweep, what stood there kept beside it", async () => {
  mkdirSync(join(ws, 'config'));
  mkdirSync(join(ws, '.claude'));
  writeFileSync(join(ws, '.claude', 'settings.json'), '{"hooks":{}}');
  mkdirSync(join(home, 'placeholders'), { recursive: true });
  writeFileSync(
    join(home, 'placeholders', 'dead.json'),
    JSON.stringify({
      pid: deadPid(),
      paths: [],
      links: [{ path: join(ws, '.claude'), target: 'config' }],
    }),
  );
  await sweepPlaceholders(home);
  expect(readlinkSync(join(ws, '.claude'))).toBe('config');
  const moved = readdirSync(ws).filter((n) => n.startsWith('.claude.replaced-'));
  expect(moved).toHaveLength(1);
  expect(readFileSync(join(ws, moved[0]!, 'settings.json'), 'utf8')).toBe('{"hooks":{}}');
  expect(readdirSync(join(home, 'placeholders'))).toEqual([]);
});

it('an intact link is left as it is, and the cleanup says nothing of it', async () => {
  mkdirSync(join(ws, 'config'));
  symlinkSync('config', join(ws, '.claude'));
  const done = await notePlaceholders(
    home,
    [],
    [{ path: join(ws, '.claude'), target: 'config' }],
    ws,
  );
  expect(await done()).toEqual([]);
  expect(readlinkSync(join(ws, '.claude'))).toBe('config');
  expect(readdirSync(ws).sort()).toEqual(['.claude', 'config']);
});

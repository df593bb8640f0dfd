/** The FileChanged watcher: real adds, changes and removals, once each, and a folder it cannot watch said. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRunWatches, watchFiles, type FileEvent, type FileWatch } from '../../../src/main/user-hooks/claude-file-watch.ts';

let dir: string;
let watcher: FileWatch | undefined;
afterEach(() => {
  watcher?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('tells a file appearing, changing and going, once each, and nothing for a file it does not watch', async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-watch-'));
  const file = join(dir, '.envrc');
  const told: [string, FileEvent][] = [];
  watcher = watchFiles([file], (path, event) => told.push([path, event]), () => {});
  writeFileSync(file, 'A=1\n');
  writeFileSync(join(dir, 'other.txt'), 'x');
  await vi.waitFor(() => expect(told).toEqual([[file, 'add']]));
  writeFileSync(file, 'A=22\n');
  await vi.waitFor(() => expect(told.at(-1)).toEqual([file, 'change']));
  rmSync(file);
  await vi.waitFor(() => expect(told.at(-1)).toEqual([file, 'unlink']));
  expect(told.map(([, e]) => e)).toEqual(['add', 'change', 'unlink']);
});

it("says which folder it cannot watch, and watches the others", () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-watch-'));
  const problems: string[] = [];
  watcher = watchFiles([join(dir, 'missing', '.env'), join(dir, '.env')], () => {}, (m) => problems.push(m));
  expect(problems).toEqual([expect.stringContaining(`cannot watch ${join(dir, 'missing')} for FileChanged hooks`)]);
});

it('does not set itself off: what changes while the handlers run is theirs, a later change is told again', async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-watch-'));
  const file = join(dir, '.env');
  writeFileSync(file, 'A=1\n');
  const told: FileEvent[] = [];
  const runs = createRunWatches();
  // A formatter: each time .env changes, it rewrites .env (and takes a moment doing it).
  runs.start('run_1', { fixed: [file], asked: [] }, async (_path, event) => {
    told.push(event);
    writeFileSync(file, `A=${told.length + 1}  # formatted\n`);
    await sleep(150);
    return undefined;
  }, () => {});
  writeFileSync(file, 'A=2\n');
  await vi.waitFor(() => expect(told).toEqual(['change']));
  await sleep(400);
  expect(told).toEqual(['change']);
  writeFileSync(file, 'A=30\n');
  await vi.waitFor(() => expect(told).toEqual(['change', 'change']));
  await runs.stop('run_1', 1000);
});

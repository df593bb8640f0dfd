/** The FileChanged watcher: real adds, changes and removals, once each, and a folder it cannot watch said. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { watchFiles, type FileEvent, type FileWatch } from '../../../src/main/user-hooks/claude-file-watch.ts';

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

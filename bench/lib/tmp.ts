/** Temporary folders for a group, removed on exit (also after a crash) so no run leaves files behind. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];
process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A new empty folder under os.tmpdir(), deleted when the process exits. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `wb-bench-${prefix}-`));
  made.push(dir);
  return dir;
}

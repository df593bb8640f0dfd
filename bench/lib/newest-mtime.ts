/** The newest modification time of any file under `dir` (ms), for "is this build stale?" checks. */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * The text of an optional file, or undefined when no regular file is readable there. Most such files
 * (Claude Code settings, plugin lists) are missing: that is answered by one synchronous stat. A FIFO,
 * device or folder is never read, and the file is opened non-blocking, so a FIFO swapped in after the
 * stat cannot hold the read forever.
 */
import { constants } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { existsAs } from './stat-if-any.ts';

export async function readTextIfFile(path: string): Promise<string | undefined> {
  if (!existsAs(path, 'file')) return undefined;
  return readFile(path, {
    encoding: 'utf8',
    flag: constants.O_RDONLY | constants.O_NONBLOCK,
  }).catch(() => undefined);
}

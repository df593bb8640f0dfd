/**
 * Reading optional config files. Most (Claude Code settings, plugin lists, `.mcp.json`) are missing:
 * that is answered by one synchronous stat. A FIFO, device or folder is never read, and files are
 * opened non-blocking, so a FIFO swapped in after the stat cannot hold the read forever.
 */
import { closeSync, constants, openSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { existsAs, statIfAny } from './stat-if-any.ts';

/**
 * Flags to open a file the workspace controls for reading: a FIFO opens at once (and is then refused
 * or reads as empty) instead of waiting for a writer with a thread-pool thread held.
 */
export const READ_NONBLOCKING = constants.O_RDONLY | constants.O_NONBLOCK;

/** `path` read as UTF-8 through a non-blocking open; rejects as readFile does. */
export function readTextNonBlocking(path: string): Promise<string> {
  return readFile(path, { encoding: 'utf8', flag: READ_NONBLOCKING });
}

/** The text of an optional file, or undefined when no regular file is readable there. */
export async function readTextIfFile(path: string): Promise<string | undefined> {
  if (!existsAs(path, 'file')) return undefined;
  return readTextNonBlocking(path).catch(() => undefined);
}

/** Largest config file `readTextFileSync` reads: profiles and agent.yaml are a few KB. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The text of an optional file read synchronously (a small config file: microseconds, where a trip
 * through the thread pool costs ~0.1 ms), or undefined when nothing is there. Throws "not a regular
 * file" for a folder, FIFO or device, "larger than 1 MB" past that, and as readFileSync for an
 * unreadable file.
 */
export function readTextFileSync(path: string): string | undefined {
  const st = statIfAny(path);
  if (!st) return undefined;
  if (!st.isFile()) throw new Error('not a regular file');
  if (st.size > MAX_CONFIG_BYTES) throw new Error('larger than 1 MB');
  const fd = openSync(path, READ_NONBLOCKING);
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Atomic file writes (temp + fsync + rename) with an optional check that nobody changed the file. */
import { open, rename, readFile, stat, mkdir, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes, createHash } from 'node:crypto';

/** A version token for optimistic concurrency: sha256 of the content ('' when the file is missing). */
export function versionOf(content: string | null): string {
  return content === null ? '' : createHash('sha256').update(content).digest('hex').slice(0, 16);
}

export async function readTextOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export class ConflictError extends Error {
  readonly current: string | null;
  constructor(path: string, current: string | null) {
    super(`${path} changed on disk since it was read`);
    this.name = 'ConflictError';
    this.current = current;
  }
}

/**
 * Writes `content` to `path` atomically. With `expectedVersion`, refuses (ConflictError) when the
 * file on disk no longer has that version.
 * Contract: a reader sees the old or the new file, never a torn one; parents are created.
 */
export async function writeFileAtomic(path: string, content: string, expectedVersion?: string): Promise<void> {
  if (expectedVersion !== undefined) {
    const current = await readTextOrNull(path);
    if (versionOf(current) !== expectedVersion) throw new ConflictError(path, current);
  }
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  let mode: number | undefined;
  try {
    mode = (await stat(path)).mode;
  } catch {
    mode = undefined;
  }
  const fh = await open(tmp, 'w', mode);
  try {
    await fh.writeFile(content, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/**
 * The one atomic file write (temp file in the same folder, fsync, rename over the target), with an
 * optional check that nobody changed the file since it was read.
 */
import { randomBytes, createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { WorkbenchError } from '../errors.ts';

/** A version token for optimistic concurrency: sha256 of the content ('' when the file is missing). */
export function versionOf(content: string | null): string {
  return content === null ? '' : createHash('sha256').update(content).digest('hex').slice(0, 16);
}

/** The file's text, or null when it does not exist. */
export async function readTextOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The file changed on disk since it was read; `current` is what is there now. */
export class ConflictError extends WorkbenchError {
  readonly current: string | null;
  constructor(path: string, current: string | null) {
    super('conflict', `${path} changed on disk since it was read`);
    this.name = 'ConflictError';
    this.current = current;
  }
}

export interface AtomicWriteOptions {
  /** Refuse (ConflictError) unless the file on disk has this `versionOf` ('' = must not exist). */
  expectedVersion?: string;
  /** Create missing parent folders (default true). */
  createParents?: boolean;
  /** The file's permission bits (default: the existing file's, else 0o666 less the umask). */
  mode?: number;
}

/**
 * Writes `data` to `path` through a temp file renamed over it, keeping an existing file's mode
 * unless `mode` is given.
 * Contract: readers see the old or the new content, never a torn file; a hard link to the old inode
 * is left untouched (the name is re-pointed, the old inode is never written); no temp file is left
 * behind when the write fails.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  opts: AtomicWriteOptions = {},
): Promise<void> {
  if (opts.expectedVersion !== undefined) {
    const current = await readTextOrNull(path);
    if (versionOf(current) !== opts.expectedVersion) throw new ConflictError(path, current);
  }
  if (opts.createParents !== false) await mkdir(dirname(path), { recursive: true });
  const mode =
    opts.mode ??
    (await stat(path).then(
      (st) => st.mode & 0o7777,
      () => undefined,
    ));
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fh = await open(tmp, 'wx', mode ?? 0o666);
    try {
      await fh.writeFile(data);
      if (mode !== undefined) await fh.chmod(mode); // the umask may have narrowed it
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}

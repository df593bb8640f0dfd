/**
 * `statSync`/`lstatSync` that answer `undefined` when there is nothing at `path`, including when a
 * folder on the way is a file (`.claude` committed as a file makes `.claude/CLAUDE.md` ENOTDIR, which
 * Node's `throwIfNoEntry: false` still throws). Other errors (EACCES, ELOOP) still throw.
 */
import { lstatSync, statSync, type Stats } from 'node:fs';

const isAbsent = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOTDIR';

/** `statSync(path)`, or undefined when nothing is there. */
export function statIfAny(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (err) {
    if (isAbsent(err)) return undefined;
    throw err;
  }
}

/** `lstatSync(path)`, or undefined when nothing is there. */
export function lstatIfAny(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (err) {
    if (isAbsent(err)) return undefined;
    throw err;
  }
}

/**
 * Whether a folder (`kind: 'directory'`) or a regular file is at `path`, following links; any error
 * is a no. For optional paths that are usually missing: one synchronous stat, no thread-pool round trip.
 */
export function existsAs(path: string, kind: 'file' | 'directory'): boolean {
  try {
    const s = statSync(path, { throwIfNoEntry: false });
    return kind === 'file' ? Boolean(s?.isFile()) : Boolean(s?.isDirectory());
  } catch {
    return false;
  }
}

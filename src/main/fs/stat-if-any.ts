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

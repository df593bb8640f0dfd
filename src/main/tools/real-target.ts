/**
 * The real path a tool will open, even when its tail does not exist yet: symlinks of every existing
 * part followed (also `/proc/self/root/…` and dangling links, to where a write would land), the
 * missing tail kept as written. Used by the workspace guard and by the approval rules.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

const MAX_SYMLINK_HOPS = 40;

/** A chain of more than 40 symlinks (or a loop) on the way to a path. */
export class SymlinkLoopError extends Error {
  constructor(path: string) {
    super(`symlink loop in path: ${path}`);
    this.name = 'SymlinkLoopError';
  }
}

/** Real path of `requested` (relative to `root` or absolute). Contract: never throws; a loop gives the path as written. */
export function realTargetSync(requested: string, root: string): string {
  const abs = path.isAbsolute(requested) ? path.resolve(requested) : path.resolve(root, requested);
  try {
    return realpathSync(abs);
  } catch {
    try {
      return walkRealPath(abs);
    } catch {
      return abs;
    }
  }
}

/**
 * Follows `abs` component by component: each existing symlink is resolved (its target walked the same
 * way, so a dangling or chained link is followed too), and at the first missing part the rest is
 * appended as written.
 * Contract: throws SymlinkLoopError past 40 links, and any file-system error but a missing part.
 */
export function walkRealPath(abs: string, counter = { hops: 0 }): string {
  const parts = abs.split(path.sep).filter((p) => p !== '');
  let real = path.parse(abs).root || path.sep;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part === '.') continue;
    if (part === '..') {
      real = path.dirname(real);
      continue;
    }
    const next = path.join(real, part);
    const st = lstatMissingOk(next);
    // Nothing exists from here on: the rest is created as written (path.join normalises `..`).
    if (!st) return path.join(next, ...parts.slice(i + 1));
    if (!st.isSymbolicLink()) {
      real = next;
      continue;
    }
    if (++counter.hops > MAX_SYMLINK_HOPS) throw new SymlinkLoopError(abs);
    const target = readlinkSync(next);
    real = walkRealPath(path.isAbsolute(target) ? target : real + path.sep + target, counter);
  }
  return real;
}

function lstatMissingOk(p: string) {
  try {
    return lstatSync(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

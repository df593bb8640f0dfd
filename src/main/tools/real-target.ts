/**
 * The real path a tool will open, computed synchronously for the approval rules: symlinks of every
 * existing part followed (also `/proc/self/root/…` and dangling links), the missing tail kept, and
 * whether the workspace's file system ignores case (`.GIT/hooks` is `.git/hooks` there).
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

const MAX_SYMLINK_HOPS = 40;

/** Real path of `requested` (relative to `root` or absolute). Contract: never throws; a loop gives the path as written. */
export function realTargetSync(requested: string, root: string): string {
  const abs = path.isAbsolute(requested) ? path.resolve(requested) : path.resolve(root, requested);
  try {
    return realpathSync(abs);
  } catch {
    try {
      return walk(abs, { hops: 0 });
    } catch {
      return abs;
    }
  }
}

function walk(abs: string, counter: { hops: number }): string {
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
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      return path.join(next, ...parts.slice(i + 1));
    }
    if (!isLink) {
      real = next;
      continue;
    }
    if (++counter.hops > MAX_SYMLINK_HOPS) throw new Error('symlink loop');
    const target = readlinkSync(next);
    real = walk(path.isAbsolute(target) ? target : real + path.sep + target, counter);
  }
  return real;
}

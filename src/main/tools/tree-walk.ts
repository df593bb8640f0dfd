/**
 * Recursive directory walk for glob and the JS grep fallback: no symlink following, optional
 * .gitignore. A `.gitignore` is read only when it is a regular file, opened non-blocking: a FIFO there
 * (a hostile repository) never holds the walk waiting for a writer.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isIgnored, parseGitignore, type IgnoreFile } from './gitignore.ts';
import { readTextIfFile, readTextNonBlocking } from '../fs/read-text-if-file.ts';

/** What the walk skips and when it stops. */
export interface WalkOptions {
  /** Honour .gitignore files found while walking (plus `ignores` given up front). */
  readonly gitignore?: boolean;
  /** Ignore files of the folders above the walk start (workspace root down to it). */
  readonly ignores?: readonly IgnoreFile[];
  /** Folder names never entered (matched on the name alone). */
  readonly skipDirNames?: ReadonlySet<string>;
  readonly signal?: AbortSignal;
  /** Stop collecting after this many files; `truncated` is then set. */
  readonly maxFiles?: number;
}

/** Files found by a walk. */
export interface WalkResult {
  /** Absolute paths of regular files and symlinks (not followed). */
  files: string[];
  /** Absolute paths that are symlinks (subset of `files`). */
  symlinks: Set<string>;
  truncated: boolean;
}

/** Lists the files under `start`. Contract: unreadable folders are skipped, never thrown. */
export async function walkTree(start: string, opts: WalkOptions = {}): Promise<WalkResult> {
  const result: WalkResult = { files: [], symlinks: new Set(), truncated: false };
  const max = opts.maxFiles ?? Number.POSITIVE_INFINITY;
  const visit = async (dir: string, stack: readonly IgnoreFile[]): Promise<void> => {
    opts.signal?.throwIfAborted();
    if (result.files.length >= max) {
      result.truncated = true;
      return;
    }
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    let here = stack;
    if (opts.gitignore && entries.some((e) => e.name === '.gitignore' && e.isFile())) {
      const text = await readTextNonBlocking(path.join(dir, '.gitignore')).catch(() => '');
      here = [...stack, { dir, rules: parseGitignore(text) }];
    }
    const subdirs: string[] = [];
    for (const entry of entries) {
      const abs = path.join(dir, entry.name);
      const isDir = entry.isDirectory();
      if (isDir && opts.skipDirNames?.has(entry.name)) continue;
      if (opts.gitignore && isIgnored(abs, isDir, here)) continue;
      if (isDir) subdirs.push(abs);
      else if (entry.isFile() || entry.isSymbolicLink()) {
        if (result.files.length >= max) {
          result.truncated = true;
          break;
        }
        result.files.push(abs);
        if (entry.isSymbolicLink()) result.symlinks.add(abs);
      }
    }
    await Promise.all(subdirs.map((d) => visit(d, here)));
  };
  await visit(start, opts.ignores ?? []);
  return result;
}

/** Loads the .gitignore files of `root` and every folder between it and `start` (exclusive of `start`). */
export async function ancestorIgnores(root: string, start: string): Promise<IgnoreFile[]> {
  if (start === root || !start.startsWith(root + path.sep)) return [];
  const out: IgnoreFile[] = [];
  let dir = root;
  const parts = start.slice(root.length + 1).split(path.sep);
  for (let i = 0; i < parts.length; i++) {
    const text = await readTextIfFile(path.join(dir, '.gitignore'));
    if (text !== undefined) out.push({ dir, rules: parseGitignore(text) });
    dir = path.join(dir, parts[i]!);
  }
  return out;
}

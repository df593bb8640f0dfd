/**
 * The workspace path guard: every model-given path is resolved to the real location the OS would
 * touch (symlinks of every existing part followed, dangling links followed to their target) and must
 * lie under the real root or a working directory added to it (`--add-dir`, `additionalDirectories`),
 * or under a read-only extra root for reads. Checked before any side effect; tools then use the
 * returned real path, so what was checked is what gets opened.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { PathOutsideWorkspaceError, type Workspace } from './workspace.ts';
import { ToolError } from './types.ts';
import { openForRead, writeChecked } from './safe-fs.ts';
import { SymlinkLoopError, walkRealPath } from './real-target.ts';
import type { OutsideProgram } from './program-files.ts';

/** Options of the guard. */
export interface WorkspaceOptions {
  /** Let tools open files that have other hard links (settings `allow_hard_links`). */
  allowHardLinks?: boolean;
  /**
   * Working directories besides the root, read and written as the root is (real paths, checked by
   * working-dirs.ts). Relative paths still resolve against the root.
   */
  extraRoots?: readonly string[];
  /** The files the run's hooks and servers run outside the sandbox, wherever they are (`Workspace.programs`). */
  programs?: () => readonly OutsideProgram[];
  /**
   * Folders outside the root the file tools read and write, without being working directories
   * (real paths): the running agent's own memory folder.
   */
  writableRoots?: readonly string[];
}

/** Creates the guard for a workspace folder. Contract: rejects if `root` does not exist. */
export async function createWorkspace(root: string, opts: WorkspaceOptions = {}): Promise<Workspace> {
  // One realpath(3) call, made here rather than through the thread pool: every run's start makes its
  // workspace, and the trip there cost more than the call (docs/performance.md).
  const realRoot = realpathSync.native(path.resolve(root));
  const extraRoots = (opts.extraRoots ?? []).filter((r) => !isInside(r, realRoot));
  const readRoots: string[] = [];
  const ownRoots = opts.writableRoots ?? [];
  const writable = (real: string) =>
    isInside(real, realRoot) ||
    extraRoots.some((r) => isInside(real, r)) ||
    ownRoots.some((r) => isInside(real, r));
  const readable = (real: string) => writable(real) || readRoots.some((r) => isInside(real, r));
  const display = (absolutePath: string): string => {
    if (!isInside(absolutePath, realRoot)) return absolutePath;
    return path.relative(realRoot, absolutePath) || '.';
  };

  return {
    root: realRoot,
    extraRoots,
    programs: () => (opts.programs?.() ?? []).filter((p) => writable(p.path)),
    allowHardLinks: opts.allowHardLinks === true,
    async resolve(requested: string, mode: 'read' | 'write' = 'write'): Promise<string> {
      const abs = toAbsolute(realRoot, requested);
      const real = await resolveReal(abs);
      if (writable(real)) return real;
      if (mode === 'read' && readRoots.some((r) => isInside(real, r))) return real;
      throw new PathOutsideWorkspaceError(requested);
    },
    display,
    addReadRoot(dir: string): void {
      let real: string;
      try {
        real = realpathSync(path.resolve(dir));
      } catch {
        real = path.resolve(dir);
      }
      if (!readRoots.includes(real)) readRoots.push(real);
    },
    openRead: (real) =>
      openForRead(real, display(real), { allowed: readable, allowHardLinks: opts.allowHardLinks === true }),
    async write(real, data) {
      if (!writable(real)) throw new PathOutsideWorkspaceError(real);
      if (real === realRoot || extraRoots.includes(real) || ownRoots.includes(real))
        throw new ToolError(`is a directory: ${display(real)}`);
      return writeChecked(real, data, display(real));
    },
  };
}

/** True when `p` is `dir` or below it; compared with a trailing separator so `/ws/proj-evil` is not in `/ws/proj`. */
export function isInside(p: string, dir: string): boolean {
  if (p === dir) return true;
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  return p.startsWith(prefix);
}

function toAbsolute(root: string, requested: string): string {
  if (typeof requested !== 'string') throw new ToolError('invalid path: expected a string');
  if (requested.includes('\0')) throw new ToolError('invalid path: contains a NUL byte');
  if (requested.trim() === '') throw new ToolError('invalid path: empty');
  // `~`, `$HOME` and `%2e` are deliberately not expanded: they stay literal names inside the root.
  return path.isAbsolute(requested) ? path.resolve(requested) : path.resolve(root, requested);
}

/**
 * Real path of `abs` even when its tail does not exist yet: realpath of the deepest existing part,
 * following dangling symlinks to where a write would land, then the missing tail re-appended.
 */
async function resolveReal(abs: string): Promise<string> {
  try {
    // Synchronous: a local realpath takes microseconds, a round trip through the thread pool ~0.1 ms
    // (docs/performance.md); `.native` is the same libc realpath the promise API calls.
    return realpathSync.native(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new ToolError(`symlink loop in path: ${abs}`);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
  }
  try {
    return walkRealPath(abs);
  } catch (err) {
    if (err instanceof SymlinkLoopError) throw new ToolError(err.message);
    throw err;
  }
}

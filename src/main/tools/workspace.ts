/** The workspace port: a real root folder and the guard every model-given path goes through. */
import type { OpenedFile } from './safe-fs.ts';
import type { OutsideProgram } from './program-files.ts';

export interface Workspace {
  /** Real path of the workspace root. */
  readonly root: string;
  /** Real paths of the working directories added to the root (`--add-dir`, `additionalDirectories`). */
  readonly extraRoots: readonly string[];
  /**
   * Files in the workspace or an added working directory that the run's hooks and MCP servers run
   * outside the sandbox (program-files.ts), by real path: guarded as the protected paths are.
   */
  programs(): readonly OutsideProgram[];
  /** Files with other hard links may be opened (settings `allow_hard_links`). */
  readonly allowHardLinks: boolean;
  /**
   * Resolves a model-given path (relative to the root, or absolute) to an absolute path inside the
   * workspace or an added working directory, following symlinks of every existing part. Read-only
   * roots (skill folders) are allowed when `mode` is 'read'.
   * Contract: throws `PathOutsideWorkspaceError` ("path outside workspace") before any side effect.
   */
  resolve(path: string, mode?: 'read' | 'write'): Promise<string>;
  /** The path as shown to the model and the user: relative to the root when inside it. */
  display(absolutePath: string): string;
  /** Allows reads (never writes) under an extra folder, e.g. a skill's folder outside the workspace. */
  addReadRoot(dir: string): void;
  /**
   * Opens a path `resolve` returned for reading.
   * Contract: refuses (ToolError) directories, FIFOs, sockets, devices, files with other hard links
   * (unless settings allow them) and a file swapped mid-call; never blocks on a FIFO. Synchronous:
   * a local open is microseconds (docs/performance.md); the caller closes what it got.
   */
  openRead(real: string): OpenedFile;
  /**
   * Writes a path `resolve(…, 'write')` returned, atomically, creating missing folders.
   * Contract: every folder and the final rename are checked to be the real path that was resolved,
   * so a folder swapped for a symlink mid-call fails the write instead of redirecting it.
   */
  write(real: string, data: string | Uint8Array): Promise<{ existed: boolean }>;
}

export class PathOutsideWorkspaceError extends Error {
  readonly requested: string;
  constructor(requested: string) {
    super('path outside workspace');
    this.requested = requested;
    this.name = 'PathOutsideWorkspaceError';
  }
}

// The implementation lives next door; re-exported so callers can import the port and factory together.
export { createWorkspace } from './path-guard.ts';

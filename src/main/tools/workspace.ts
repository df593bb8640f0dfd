/** The workspace port: a real root folder and the guard every model-given path goes through. */

export interface Workspace {
  /** Real path of the workspace root. */
  readonly root: string;
  /**
   * Resolves a model-given path (relative to the root, or absolute) to an absolute path inside the
   * workspace, following symlinks of every existing part. Read-only roots (skill folders) are allowed
   * when `mode` is 'read'.
   * Contract: throws `PathOutsideWorkspaceError` ("path outside workspace") before any side effect.
   */
  resolve(path: string, mode?: 'read' | 'write'): Promise<string>;
  /** The path as shown to the model and the user: relative to the root when inside it. */
  display(absolutePath: string): string;
  /** Allows reads (never writes) under an extra folder, e.g. a skill's folder outside the workspace. */
  addReadRoot(dir: string): void;
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

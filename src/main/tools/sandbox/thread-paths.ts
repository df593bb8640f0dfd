/**
 * Paths a thread's settings set for its sandboxed commands, beyond the fixed policy: what its
 * `Read(…)` and `Edit(…)` deny rules and `sandbox.filesystem` deny lists keep from them (hidden,
 * or read-only) and what its `sandbox.filesystem` allow lists open (readable again inside a hidden
 * folder, or writable outside the workspace), as Claude Code's sandbox takes them from the same
 * settings. The permission-rules ring sets how to find them, the execute tool asks for them at each
 * command, so a file created since the last command is covered. Keyed by the thread's state object.
 */
export interface SandboxPaths {
  /** Paths sandboxed commands cannot read (as SandboxPolicyInput takes them). */
  deniedRead: string[];
  /** Paths sandboxed commands cannot write. */
  deniedWrite: string[];
  /** Paths readable again inside a hidden folder (`allowRead`). */
  allowedRead?: string[];
  /** Paths writable besides the workspace (`allowWrite`). */
  allowedWrite?: string[];
  /** What was not held from the command and why (a limit was reached), for its result. */
  limits?: string[];
}

const finders = new WeakMap<object, () => SandboxPaths>();

/** Sets how the commands of the thread holding `state` find their paths. */
export function setSandboxPaths(state: object, find: () => SandboxPaths): void {
  finders.set(state, find);
}

/** The paths of the thread holding `state` as they are now (none when no setting names one). */
export function sandboxPaths(state: object): SandboxPaths {
  return finders.get(state)?.() ?? { deniedRead: [], deniedWrite: [] };
}

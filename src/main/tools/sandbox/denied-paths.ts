/**
 * Paths a thread's permission rules keep from its sandboxed commands (`Read(…)` deny rules hidden,
 * `Edit(…)` deny rules read-only), as Claude Code's sandbox takes them from the same rules: the
 * permission-rules ring sets how to find them, the execute tool asks for them at each command, so a
 * file created since the last command is covered. Keyed by the thread's state object.
 */
export interface SandboxDenials {
  /** Paths sandboxed commands cannot read (as SandboxPolicyInput takes them). */
  deniedRead: string[];
  /** Paths sandboxed commands cannot write. */
  deniedWrite: string[];
  /** What was not held from the command and why (a limit was reached), for its result. */
  limits?: string[];
}

const finders = new WeakMap<object, () => SandboxDenials>();

/** Sets how the commands of the thread holding `state` find their denied paths. */
export function setSandboxDenials(state: object, find: () => SandboxDenials): void {
  finders.set(state, find);
}

/** The denied paths of the thread holding `state` as they are now (none when no rule denies a path). */
export function sandboxDenials(state: object): SandboxDenials {
  return finders.get(state)?.() ?? { deniedRead: [], deniedWrite: [] };
}

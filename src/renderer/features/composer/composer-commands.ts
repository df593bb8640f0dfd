/**
 * The composer's `/` commands. Built-ins are registered here; other features add theirs with
 * `registerComposerCommand` (e.g. recipes), and the menu lists whatever is registered.
 */

/** What a command may do: the composer passes these in when it runs one. */
export interface ComposerCommandContext {
  threadId: string | null;
  /** Text typed after the command name. */
  args: string;
  newThread(): void;
  compact(): Promise<void>;
  clearComposer(): void;
  /** Sends a message on the active thread (as if typed). */
  send(text: string): Promise<boolean>;
}

export interface ComposerCommand {
  /** Typed after `/`; lower case, no spaces. */
  name: string;
  description: string;
  /** Picking it from the menu fills `/name ` for the arguments instead of running it at once. */
  takesArgs?: boolean;
  /** Hidden when it cannot apply (e.g. compacting before a thread exists). */
  available?(ctx: { threadId: string | null }): boolean;
  run(ctx: ComposerCommandContext): void | Promise<unknown>;
}

const commands = new Map<string, ComposerCommand>();

/** Adds or replaces a command. Contract: returns a function that removes it again. */
export function registerComposerCommand(command: ComposerCommand): () => void {
  commands.set(command.name, command);
  return () => {
    if (commands.get(command.name) === command) commands.delete(command.name);
  };
}

/** Commands whose name starts with `prefix`, available for this thread, by name. */
export function matchCommands(prefix: string, threadId: string | null): ComposerCommand[] {
  const p = prefix.toLowerCase();
  return [...commands.values()]
    .filter((c) => c.name.startsWith(p) && (c.available?.({ threadId }) ?? true))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** `/name args` → the command and its arguments, when the text is one. */
export function parseCommand(text: string): { name: string; args: string } | undefined {
  const m = /^\/([a-z][a-z0-9-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1]!, args: m[2]?.trim() ?? '' } : undefined;
}

export const findCommand = (name: string): ComposerCommand | undefined => commands.get(name);

registerComposerCommand({
  name: 'compact',
  description: 'Summarize older messages now to free context',
  available: ({ threadId }) => threadId !== null,
  run: (ctx) => ctx.compact(),
});
registerComposerCommand({
  name: 'clear',
  description: 'Clear the message box and start a new thread (this one stays in the sidebar)',
  run: (ctx) => {
    ctx.clearComposer();
    ctx.newThread();
  },
});
registerComposerCommand({
  name: 'new',
  description: 'Start a new thread',
  run: (ctx) => ctx.newThread(),
});

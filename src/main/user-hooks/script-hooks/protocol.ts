/**
 * The JSON-lines protocol between the workbench and a script child (docs/agents.md#script-hooks-create--next):
 * one call line in on stdin, any number of notes and exactly one result line out on stdout.
 */

/** The two functions a script may export. */
export type ScriptFunction = 'Create' | 'Next';

/** The read-only part of `ctx` a script sees, plus the run's memory as it stands. */
export interface ScriptCallContext {
  thread_id: string;
  run_id: string;
  workspace: string;
  profile: string;
  model: string;
  metadata: Record<string, unknown>;
  memory: Record<string, unknown>;
}

/** The one line the workbench writes to the child. */
export interface ScriptCall {
  fn: ScriptFunction;
  script: string;
  ctx: ScriptCallContext;
  args: unknown[];
}

/** What the child writes back, one JSON object a line. */
export type ScriptNote =
  | { t: 'memory'; key: string; value: unknown }
  | { t: 'trace'; level: 'info' | 'warn' | 'error'; message: string }
  | { t: 'send'; text: string }
  | { t: 'stream'; op: 'start' | 'append' | 'end'; id: string; text?: string }
  | { t: 'result'; value: unknown; absent?: boolean }
  | { t: 'error'; message: string };

/** Reads one stdout line; undefined for anything that is not a note (a stray `process.stdout.write`). */
export function parseNote(line: string): ScriptNote | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const note = JSON.parse(line) as { t?: unknown };
    return typeof note.t === 'string' ? (note as ScriptNote) : undefined;
  } catch {
    return undefined;
  }
}

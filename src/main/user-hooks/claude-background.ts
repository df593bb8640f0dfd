/**
 * Claude Code handlers marked `async` (or `asyncRewake`) run beside the agent instead of holding it
 * (docs/hooks.md, Claude Code settings hooks): their decisions come too late to apply, but what
 * they say for the model — `additionalContext`, and an `asyncRewake` handler's exit-2 reason —
 * joins the run's later requests, and what they say for the user is shown when they finish. The
 * end of a run waits for them, up to a cap, so a CLI run does not cut off its own formatter.
 */
import type { ClaudeOutcome } from './claude-hooks.ts';

/** Most messages kept per run: a handler that fires on every call cannot grow the request without bound. */
const MAX_MESSAGES = 20;

export interface BackgroundHooks {
  /** Follows a handler started in the background; `report` gets its outcome once it ends. */
  track(runId: string, job: Promise<ClaudeOutcome>, report: (o: ClaudeOutcome) => void): void;
  /** Adds what a finished handler said for the model (nothing once the run was forgotten). */
  addContext(runId: string, text: string): void;
  /** What finished handlers said for the model, oldest first (the last MAX_MESSAGES). */
  contextOf(runId: string): readonly string[];
  /** Waits for the run's handlers still running, at most `capMs`; resolves how many were left running. */
  settle(runId: string, capMs: number): Promise<number>;
  /** Drops the run's messages (its handlers, if any still run, are no longer waited for). */
  forget(runId: string): void;
}

export function createBackgroundHooks(): BackgroundHooks {
  const running = new Map<string, Set<Promise<void>>>();
  const context = new Map<string, string[]>();
  return {
    track(runId, job, report) {
      let set = running.get(runId);
      if (!set) running.set(runId, (set = new Set()));
      // A report that throws loses only its own message, never the process.
      const done: Promise<void> = job
        .then(report)
        .catch(() => undefined)
        .finally(() => set.delete(done));
      set.add(done);
    },
    addContext(runId, text) {
      // The run already ended: nobody will read it.
      if (!running.has(runId)) return;
      const list = context.get(runId) ?? [];
      list.push(text);
      context.set(runId, list.slice(-MAX_MESSAGES));
    },
    contextOf: (runId) => context.get(runId) ?? [],
    async settle(runId, capMs) {
      const set = running.get(runId);
      if (!set || set.size === 0) return 0;
      let timer: NodeJS.Timeout | undefined;
      const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, capMs)));
      await Promise.race([Promise.allSettled([...set]), cap]);
      clearTimeout(timer);
      return set.size;
    },
    forget(runId) {
      running.delete(runId);
      context.delete(runId);
    },
  };
}

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
/** Background handlers running at once per run; the others wait their turn (300 calls do not start 300 processes). */
const MAX_RUNNING = 8;

export interface BackgroundHooks {
  /** Starts a handler in the background when a slot is free; `report` gets its outcome once it ends. */
  track(
    runId: string,
    start: () => Promise<ClaudeOutcome>,
    report: (o: ClaudeOutcome) => void,
  ): void;
  /** Adds what a finished handler said for the model (nothing once the run was forgotten). */
  addContext(runId: string, text: string): void;
  /** What finished handlers said for the model, oldest first (the last MAX_MESSAGES). */
  contextOf(runId: string): readonly string[];
  /** Waits for the run's handlers still running or waiting, at most `capMs`; resolves how many were left. */
  settle(runId: string, capMs: number): Promise<number>;
  /** Drops the run's messages and the handlers still waiting for a slot (running ones are no longer waited for). */
  forget(runId: string): void;
}

export function createBackgroundHooks(): BackgroundHooks {
  const pending = new Map<string, Set<Promise<void>>>();
  const context = new Map<string, string[]>();
  const running = new Map<string, number>();
  /** Per run, the handlers waiting for a slot: each is told whether to start (false: the run was forgotten). */
  const queued = new Map<string, Array<(start: boolean) => void>>();

  const slot = (runId: string): Promise<boolean> => {
    const n = running.get(runId) ?? 0;
    if (n < MAX_RUNNING) {
      running.set(runId, n + 1);
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const list = queued.get(runId) ?? [];
      list.push(resolve);
      queued.set(runId, list);
    });
  };
  const release = (runId: string) => {
    if (!pending.has(runId)) return; // forgotten: nothing waits for its slots any more
    const next = queued.get(runId)?.shift();
    if (next) next(true);
    else running.set(runId, Math.max(0, (running.get(runId) ?? 1) - 1));
  };

  return {
    track(runId, start, report) {
      let set = pending.get(runId);
      if (!set) pending.set(runId, (set = new Set()));
      // A report that throws loses only its own message, never the process.
      const done: Promise<void> = slot(runId)
        .then(async (go) => {
          if (!go) return;
          try {
            report(await start());
          } finally {
            release(runId);
          }
        })
        .catch(() => undefined)
        .finally(() => set.delete(done));
      set.add(done);
    },
    addContext(runId, text) {
      // The run already ended: nobody will read it.
      if (!pending.has(runId)) return;
      const list = context.get(runId) ?? [];
      list.push(text);
      context.set(runId, list.slice(-MAX_MESSAGES));
    },
    contextOf: (runId) => context.get(runId) ?? [],
    async settle(runId, capMs) {
      const set = pending.get(runId);
      if (!set || set.size === 0) return 0;
      let timer: NodeJS.Timeout | undefined;
      const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, capMs)));
      await Promise.race([Promise.allSettled([...set]), cap]);
      clearTimeout(timer);
      return set.size;
    },
    forget(runId) {
      for (const tell of queued.get(runId) ?? []) tell(false);
      queued.delete(runId);
      pending.delete(runId);
      context.delete(runId);
      running.delete(runId);
    },
  };
}

/**
 * Claude Code's `idle_prompt` notification (docs/hooks.md): when a thread's run has ended and nobody
 * has written to it for a minute, the workspace's `Notification` handlers that match `idle_prompt`
 * run once — a desktop notification that the agent is waiting for you. A new message (or resume)
 * on the thread, its deletion or the workbench's close cancels the wait.
 */
import type { WorkbenchSettings } from '../../shared/types/index.ts';
import type { HookRunStore } from '../store/types.ts';
import { isClaudeRunnable, loadClaudeHooks } from '../user-hooks/claude-config.ts';
import { invokeClaudeHandler, type HandlerRunner } from '../user-hooks/claude-hooks.ts';
import { matcherMatches } from '../user-hooks/claude-tools.ts';
import { transcriptPath } from '../user-hooks/transcript.ts';

/** How long a finished thread waits for the user before `idle_prompt` (Claude Code's 60 s). */
const IDLE_PROMPT_MS = 60_000;

export interface IdleNotifier {
  /** A run of the thread ended: the wait starts. */
  ended(threadId: string, workspace: string): void;
  /** The thread is in use again (a send, a resume, its deletion): no notification. */
  cancel(threadId: string): void;
  /** Cancels every wait, and every later one, and lets a notification under way finish. */
  close(): Promise<void>;
}

export function createIdleNotifier(o: {
  home: string;
  settings: () => WorkbenchSettings;
  isTrusted: (workspace: string) => boolean;
  /** Whether the thread still exists (one deleted while its run ended waits for nobody). */
  exists: (threadId: string) => boolean;
  hookRuns?: HookRunStore;
  runner: () => HandlerRunner;
  delayMs?: number;
}): IdleNotifier {
  const timers = new Map<string, NodeJS.Timeout>();
  const underWay = new Set<Promise<void>>();
  let closed = false;

  async function notify(threadId: string, workspace: string): Promise<void> {
    const settings = o.settings();
    if (settings.disableAllHooks || !o.exists(threadId)) return;
    const trusted = o.isTrusted(workspace);
    const { handlers } = await loadClaudeHooks({ workspace, home: o.home, trusted, settings });
    const matching = handlers.filter(
      (h) =>
        isClaudeRunnable(h) &&
        h.event === 'Notification' &&
        matcherMatches(h.matcher, 'idle_prompt'),
    );
    if (matching.length === 0) return;
    const input = {
      session_id: threadId,
      transcript_path: transcriptPath(o.home, threadId),
      cwd: workspace,
      hook_event_name: 'Notification',
      message: 'Agent Workbench is waiting for your input',
      title: 'Agent Workbench',
      notification_type: 'idle_prompt',
    };
    const runner = o.runner();
    await Promise.all(
      matching.map((h) =>
        invokeClaudeHandler(
          { threadId, hookRuns: o.hookRuns },
          h,
          settings,
          workspace,
          input,
          o.home,
          {},
          runner,
        ),
      ),
    );
  }

  const cancel = (threadId: string) => {
    clearTimeout(timers.get(threadId));
    timers.delete(threadId);
  };
  return {
    ended(threadId, workspace) {
      cancel(threadId);
      if (closed) return;
      const timer = setTimeout(() => {
        timers.delete(threadId);
        // A notification that fails is a hook run with its error, never a crash.
        const p = notify(threadId, workspace).catch(() => undefined);
        underWay.add(p);
        void p.finally(() => underWay.delete(p));
      }, o.delayMs ?? IDLE_PROMPT_MS);
      // A waiting notification does not keep the process alive.
      timer.unref();
      timers.set(threadId, timer);
    },
    cancel,
    async close() {
      closed = true;
      for (const id of [...timers.keys()]) cancel(id);
      await Promise.allSettled([...underWay]);
    },
  };
}

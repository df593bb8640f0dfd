/**
 * Feeds `agent.event` envelopes into the store, batched per animation frame so fast streams cause
 * one render per frame. Notices seq gaps and reconnects and re-reads the active thread.
 */
import type { AgentEventEnvelope } from '../../shared/ipc/contract.ts';
import { getBridge, onConnectionState } from '../ipc/client.ts';
import { applyEvents, applyTraceEvents } from './apply-event.ts';
import { useWorkbenchStore } from './store.ts';

/** Starts feeding events; returns the stop function. */
export function startEventFeed(): () => void {
  let queue: AgentEventEnvelope[] = [];
  let scheduled = false;
  let expectedSeq = 0;

  const flush = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    const before = useWorkbenchStore.getState().chat;
    useWorkbenchStore.setState((s) => ({ chat: applyEvents(s.chat, batch), trace: applyTraceEvents(s.trace, batch) }));
    const state = useWorkbenchStore.getState();
    const touched = new Set(batch.map((e) => e.event.thread_id).filter((t): t is string => Boolean(t)));
    for (const id of touched) {
      const t = state.chat.threads[id];
      if (!t) continue;
      if (t.stale && id === state.activeThreadId) void state.reloadThread(id);
      if (before.threads[id]?.running && !t.running) {
        void state.refreshThreads();
        void state.drainQueue(id);
      }
    }
    // A run another process replays starts with on_run_created and may end interrupted (docs/events.md).
    const listChanges = new Set(['on_run_start', 'on_run_created', 'on_run_finalized']);
    if (batch.some((e) => listChanges.has(e.event.event))) void state.refreshThreads();
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    // rAF stops in background tabs; a timeout fallback keeps runs finishing there.
    const raf = typeof requestAnimationFrame === 'function' ? requestAnimationFrame : (f: () => void) => setTimeout(f, 16);
    raf(flush);
  };

  const offEvents = getBridge().on('agent.event', (env) => {
    if (expectedSeq && env.seq !== expectedSeq + 1) {
      const active = useWorkbenchStore.getState().activeThreadId;
      if (active) void useWorkbenchStore.getState().reloadThread(active);
    }
    expectedSeq = env.seq;
    queue.push(env);
    schedule();
  });

  let wasOpen = false;
  const offState = onConnectionState((c, failures) => {
    if (c !== 'connecting') useWorkbenchStore.setState({ connection: c, connectFailures: failures });
    if (c === 'open') {
      expectedSeq = 0;
      if (wasOpen) {
        const s = useWorkbenchStore.getState();
        if (s.activeThreadId) void s.reloadThread(s.activeThreadId);
        void s.refreshThreads();
      }
      wasOpen = true;
    }
  });
  if (window.workbench) useWorkbenchStore.setState({ connection: 'bridge' });
  return () => {
    offEvents();
    offState();
  };
}

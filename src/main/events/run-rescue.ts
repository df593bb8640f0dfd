/**
 * Run rescue (docs/events.md#run-rescue): a run still marked `running` whose process is gone (no
 * live lease on its thread) is marked `interrupted`, and its thread repaired (unanswered tool calls
 * closed), so nothing stays "running" after a crash or kill -9.
 */
import type { SqliteDatabase } from '../store/database.ts';
import type { NewFeedEvent } from '../store/event-store.ts';

/**
 * Marks the dead runs interrupted; returns their feed events (state change and finalization).
 * Contract: a run of a live process (its thread's lease held elsewhere, or this process) is left alone.
 */
export function rescueRuns(
  db: SqliteDatabase,
  ownRuns: ReadonlySet<string> = new Set(),
): NewFeedEvent[] {
  const events: NewFeedEvent[] = [];
  for (const run of db.runs.running()) {
    if (ownRuns.has(run.run_id) || db.leases.heldElsewhere(run.thread_id)) continue;
    db.runs.finish(run.run_id, 'interrupted', 'interrupted');
    // Loading the thread answers the tool calls the dead process left open.
    db.threads.evictIfStale(run.thread_id);
    db.threads.get(run.thread_id);
    const ids = { thread_id: run.thread_id, run_id: run.run_id };
    events.push(
      {
        type: 'run_state_changed',
        ...ids,
        data: { state: 'interrupted', previous_state: 'running' },
      },
      { type: 'run_finalized', ...ids, data: { state: 'interrupted', stop_reason: 'interrupted' } },
    );
  }
  return events;
}

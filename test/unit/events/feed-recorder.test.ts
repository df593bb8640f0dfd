import { describe, expect, it } from 'vitest';
import { createFeedRecorder, FLUSH_DELAY_MS } from '../../../src/main/events/feed-recorder.ts';
import { openDatabase } from '../../../src/main/store/database.ts';
import type { StreamEvent } from '../../../src/shared/types/index.ts';

const ids = { thread_id: 'th_1', run_id: 'run_1' };

describe('feed recorder', () => {
  it('writes buffered events in one batch shortly after the emitter returns, with the matching webhooks', async () => {
    const db = openDatabase(':memory:');
    const recorder = createFeedRecorder({
      db,
      webhooks: () => [{ on: ['run_finalized'], url: 'http://127.0.0.1:9/a' }],
    });
    const events: StreamEvent[] = [
      { event: 'on_chat_model_stream', ...ids, data: { delta: 'x' } },
      { event: 'on_tool_pending', ...ids, data: { tool_call_id: 'c1', tool_name: 'ls' } },
      { event: 'on_run_finalized', ...ids, data: { state: 'completed', stop_reason: 'completed' } },
    ];
    for (const e of events) recorder.record(e);
    // Nothing is written while the run's code is still on the stack.
    expect(db.events.lastSeq()).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(db.events.lastSeq()).toBe(0);
    await new Promise((r) => setTimeout(r, FLUSH_DELAY_MS + 5));
    const stored = db.events.since(0);
    expect(stored.map((e) => e.type)).toEqual(['tool_pending', 'run_finalized']);
    expect(db.webhooks.forEvent(stored[0].seq)).toEqual([]);
    expect(db.webhooks.forEvent(stored[1].seq)).toMatchObject([{ state: 'pending', attempts: 0 }]);
    db.close();
  });

  it('never throws into the run when the database is gone', async () => {
    const db = openDatabase(':memory:');
    const recorder = createFeedRecorder({ db, webhooks: () => [] });
    db.close();
    recorder.record({ event: 'on_tools_complete', ...ids, data: { count: 1 } });
    expect(() => recorder.flush()).not.toThrow();
  });
});

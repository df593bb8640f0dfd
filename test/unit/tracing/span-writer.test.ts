/** The span writer: one write per delay, off the round, and nothing lost when the database is busy. */
import { describe, expect, it } from 'vitest';
import type { SpanRecord } from '../../../src/shared/types/index.ts';
import type { SpanStore } from '../../../src/main/store/types.ts';
import { SpanWriter } from '../../../src/main/tracing/span-writer.ts';

const span = (id: string, end?: number): SpanRecord =>
  ({ trace_id: 't'.repeat(32), span_id: id, thread_id: 'th', run_id: 'r', name: id, kind: 'tool', start_ms: 1, end_ms: end, status: { code: 'UNSET' }, attributes: {}, events: [] });

function recordingStore(): { store: SpanStore; written: SpanRecord[] } {
  const written: SpanRecord[] = [];
  return { written, store: { upsert: (s: SpanRecord) => void written.push(s) } as unknown as SpanStore };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('SpanWriter', () => {
  it('writes queued spans once after the delay, each in its latest version', async () => {
    const { store, written } = recordingStore();
    const writer = new SpanWriter(store, 20);
    let flushes = 0;
    writer.flushStandalone = () => {
      flushes++;
      writer.flush();
    };
    writer.write(span('a'));
    writer.write(span('b'));
    writer.write(span('a', 5));
    expect(written).toEqual([]);
    await wait(60);
    expect(flushes).toBe(1);
    expect(written.map((s) => [s.span_id, s.end_ms])).toEqual([['a', 5], ['b', undefined]]);
  });

  it('keeps the spans when the database is busy and writes them with the next flush', async () => {
    const { store, written } = recordingStore();
    const writer = new SpanWriter(store, 20);
    let busy = true;
    writer.flushStandalone = () => {
      if (busy) throw new Error('database is locked');
      writer.flush();
    };
    writer.write(span('a'));
    await wait(60);
    expect(written).toEqual([]);
    busy = false;
    writer.write(span('b'));
    await wait(60);
    expect(written.map((s) => s.span_id)).toEqual(['a', 'b']);
  });
});

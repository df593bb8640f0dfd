import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SpanRecord } from '../../../src/shared/types/index.ts';
import { openDatabase, type SqliteDatabase } from '../../../src/main/store/index.ts';
import { useTempDir } from './helpers.ts';

const tempDir = useTempDir();
const opened: SqliteDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function span(id: string, start: number, extra: Partial<SpanRecord> = {}): SpanRecord {
  return {
    trace_id: 'a'.repeat(32),
    span_id: id.padStart(16, '0'),
    name: `execute_tool ${id}`,
    kind: 'tool',
    thread_id: 'th_1',
    run_id: 'run_1',
    start_ms: start,
    status: { code: 'UNSET' },
    attributes: { 'gen_ai.tool.name': id },
    events: [],
    ...extra,
  };
}

describe('SpanStore', () => {
  it('upserts at start and end, lists by thread and run in start order', () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openDatabase(file);
    opened.push(db);
    db.spans.upsert(span('b', 20.5, { parent_span_id: '000000000000000a' }));
    db.spans.upsert(span('a', 10));
    db.spans.upsert(span('c', 15, { run_id: 'run_2' }));
    db.spans.upsert(
      span('b', 20.5, {
        parent_span_id: '000000000000000a',
        end_ms: 30.25,
        status: { code: 'OK' },
      }),
    );
    expect(db.spans.listByThread('th_1').map((s) => s.span_id.slice(-1))).toEqual(['a', 'c', 'b']);
    expect(db.spans.listByRun('run_1').map((s) => s.span_id.slice(-1))).toEqual(['a', 'b']);
    expect(db.spans.listByRun('run_1')[1]).toEqual(
      span('b', 20.5, {
        parent_span_id: '000000000000000a',
        end_ms: 30.25,
        status: { code: 'OK' },
      }),
    );
  });

  it('closes spans left open by a crash as incomplete process_crash errors', () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openDatabase(file);
    db.spans.upsert(span('a', 10, { end_ms: 12, status: { code: 'OK' } }));
    db.spans.upsert(span('b', 20, { events: [{ name: 'tool_progress', time_ms: 25 }] }));
    db.spans.upsert(span('c', 30));
    db.close();
    const again = openDatabase(file);
    opened.push(again);
    expect(again.spans.closeOpenSpans(1000)).toBe(2);
    const [a, b, c] = again.spans.listByThread('th_1');
    expect(a).toEqual(span('a', 10, { end_ms: 12, status: { code: 'OK' } }));
    expect(b).toMatchObject({ end_ms: 25, incomplete: true, status: { code: 'ERROR' } });
    expect(b.attributes).toEqual({ 'gen_ai.tool.name': 'b', 'error.type': 'process_crash' });
    expect(c).toMatchObject({
      end_ms: 30,
      incomplete: true,
      attributes: { 'error.type': 'process_crash' },
    });
    expect(again.spans.closeOpenSpans(2000)).toBe(0);
  });

  it('leaves the open spans of a run owned by another live process alone', () => {
    const db = openDatabase(join(tempDir(), 'workbench.db'));
    opened.push(db);
    const root = (run: string, pid: number) => span(`root-${run}`, 1, { run_id: run, kind: 'agent', attributes: { 'workbench.pid': pid } });
    db.spans.upsert(root('live', 4242));
    db.spans.upsert(span('child-live', 2, { run_id: 'live' }));
    db.spans.upsert(root('dead', 4343));
    db.spans.upsert(span('child-dead', 2, { run_id: 'dead' }));
    const closed = db.spans.closeOpenSpans(100, (pid) => pid === 4242);
    expect(closed).toBe(2);
    const open = db.spans.listByThread('th_1').filter((s) => s.end_ms === undefined).map((s) => s.run_id);
    expect(open).toEqual(['live', 'live']);
  });
});

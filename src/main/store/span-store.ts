/** SpanStore over the spans table: upserted at start and end of every model/tool/hook call. */
import type { DatabaseSync } from 'node:sqlite';
import type { SpanEvent, SpanRecord } from '../../shared/types/index.ts';
import type { SpanStore } from './types.ts';
import type { TransactionRunner } from './transaction.ts';

interface SpanRow {
  span_id: string;
  trace_id: string;
  parent_span_id: string | null;
  thread_id: string;
  run_id: string;
  name: string;
  kind: string;
  start_ms: number;
  end_ms: number | null;
  status: string;
  attributes: string;
  events: string;
  incomplete: number;
}

function fromRow(row: SpanRow): SpanRecord {
  const span: SpanRecord = {
    trace_id: row.trace_id,
    span_id: row.span_id,
    name: row.name,
    kind: row.kind as SpanRecord['kind'],
    thread_id: row.thread_id,
    run_id: row.run_id,
    start_ms: row.start_ms,
    status: JSON.parse(row.status) as SpanRecord['status'],
    attributes: JSON.parse(row.attributes) as SpanRecord['attributes'],
    events: JSON.parse(row.events) as SpanEvent[],
  };
  if (row.parent_span_id !== null) span.parent_span_id = row.parent_span_id;
  if (row.end_ms !== null) span.end_ms = row.end_ms;
  if (row.incomplete) span.incomplete = true;
  return span;
}

/** Creates the store. Contract: upsert is one prepared INSERT OR REPLACE, cheap enough for the hot path. */
export function createSpanStore(db: DatabaseSync, tx: TransactionRunner): SpanStore {
  const q = {
    upsert: db.prepare(
      `INSERT OR REPLACE INTO spans (span_id, trace_id, parent_span_id, thread_id, run_id, name, kind, start_ms,
         end_ms, status, attributes, events, incomplete) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    byThread: db.prepare('SELECT * FROM spans WHERE thread_id = ? ORDER BY start_ms, rowid'),
    byRun: db.prepare('SELECT * FROM spans WHERE run_id = ? ORDER BY start_ms, rowid'),
    open: db.prepare('SELECT * FROM spans WHERE end_ms IS NULL'),
  };

  function upsert(span: SpanRecord): void {
    q.upsert.run(
      span.span_id,
      span.trace_id,
      span.parent_span_id ?? null,
      span.thread_id,
      span.run_id,
      span.name,
      span.kind,
      span.start_ms,
      span.end_ms ?? null,
      JSON.stringify(span.status),
      JSON.stringify(span.attributes),
      JSON.stringify(span.events),
      span.incomplete ? 1 : 0,
    );
  }

  return {
    upsert,
    listByThread: (threadId) => (q.byThread.all(threadId) as unknown as SpanRow[]).map(fromRow),
    listByRun: (runId) => (q.byRun.all(runId) as unknown as SpanRow[]).map(fromRow),
    // Crash bookkeeping: committed without an fsync, durable with the next message commit.
    closeOpenSpans(now, isAlive = processAlive) {
      return tx.run(
        () => {
          const all = (q.open.all() as unknown as SpanRow[]).map(fromRow);
          // A run's root span carries the pid of the process running it; another live process's
          // runs (the app while a CLI starts) are still going, so their spans stay open.
          const livePids = new Map<string, boolean>();
          for (const span of all) {
            const pid = span.attributes['workbench.pid'];
            if (typeof pid === 'number')
              livePids.set(span.run_id, pid !== process.pid && isAlive(pid));
          }
          const open = all.filter((span) => !livePids.get(span.run_id));
          for (const span of open) {
            // The last sign of life is the best end we know; `now` would inflate durations by the downtime.
            const lastEvent = span.events.reduce((t, e) => Math.max(t, e.time_ms), -Infinity);
            const end = Number.isFinite(lastEvent)
              ? Math.max(lastEvent, span.start_ms)
              : (span.start_ms ?? now);
            upsert({
              ...span,
              end_ms: end,
              status: { code: 'ERROR', message: 'the workbench stopped before this span ended' },
              attributes: { ...span.attributes, 'error.type': 'process_crash' },
              incomplete: true,
            });
          }
          return open.length;
        },
        { deferSync: true },
      );
    },
  };
}

/** True when a process with this pid exists (signal 0 only checks). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The `events` table: the append-only feed other processes follow by polling (WAL lets a reader
 * see each committed batch at once) and webhooks deliver from (docs/events.md).
 */
import type { DatabaseSync } from 'node:sqlite';
import type { FeedEvent, FeedEventType } from '../../shared/types/index.ts';

/** A feed event before it is stored. */
export interface NewFeedEvent {
  type: FeedEventType;
  thread_id: string | null;
  run_id: string | null;
  data: Record<string, unknown>;
}

export interface EventStore {
  /** Appends the batch (the caller's transaction, if any); returns the stored events with their seq. */
  append(events: readonly NewFeedEvent[]): FeedEvent[];
  /** Events after `seq`, oldest first, optionally of one thread, at most `limit` (default 500). */
  since(seq: number, opts?: { threadId?: string; limit?: number }): FeedEvent[];
  get(seq: number): FeedEvent | undefined;
  /** The highest seq stored, 0 when empty. */
  lastSeq(): number;
}

interface EventRow extends Omit<FeedEvent, 'data'> {
  data: string;
}

const fromRow = (row: EventRow): FeedEvent => ({
  ...row,
  data: JSON.parse(row.data) as Record<string, unknown>,
});

/** Creates the store over the `events` table. */
export function createEventStore(db: DatabaseSync, now: () => number): EventStore {
  const q = {
    insert: db.prepare(
      `INSERT INTO events (thread_id, run_id, type, data, origin_pid, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    since: db.prepare(
      `SELECT * FROM events WHERE seq > $seq AND ($thread IS NULL OR thread_id = $thread)
       ORDER BY seq LIMIT $limit`,
    ),
    get: db.prepare('SELECT * FROM events WHERE seq = ?'),
    last: db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM events'),
  };
  return {
    append(events) {
      const t = now();
      return events.map((e) => {
        const r = q.insert.run(
          e.thread_id,
          e.run_id,
          e.type,
          JSON.stringify(e.data),
          process.pid,
          t,
        );
        return { seq: Number(r.lastInsertRowid), ...e, origin_pid: process.pid, created_at: t };
      });
    },
    since: (seq, opts = {}) =>
      (
        q.since.all({
          seq,
          thread: opts.threadId ?? null,
          limit: opts.limit ?? 500,
        }) as unknown as EventRow[]
      ).map(fromRow),
    get(seq) {
      const row = q.get.get(seq) as EventRow | undefined;
      return row ? fromRow(row) : undefined;
    },
    lastSeq: () => Number((q.last.get() as { seq: number }).seq),
  };
}

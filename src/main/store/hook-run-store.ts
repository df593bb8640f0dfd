/** HookRunStore over the hook_runs table, with stored output capped. */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { TransactionRunner } from './transaction.ts';
import type { HookHealth, HookOutcome, HookRunRecord } from '../../shared/types/index.ts';
import type { HookRunStore } from './types.ts';

/** Max characters kept of a hook run's payload, stdout and stderr each. */
export const HOOK_OUTPUT_CAP = 64 * 1024;

/** Caps `text` at HOOK_OUTPUT_CAP characters, saying how much was dropped. */
export function capOutput(text: string): string {
  if (text.length <= HOOK_OUTPUT_CAP) return text;
  return `${text.slice(0, HOOK_OUTPUT_CAP)}\n…[truncated ${text.length - HOOK_OUTPUT_CAP} chars]`;
}

/** Row ids reserved at a time for deferred rows (one write to `sqlite_sequence` per block). */
const ID_BLOCK = 64;
/** How long a deferred row waits at most before it is written. */
const DEFER_MS = 250;

const COLUMNS = `(id, hook_id, hook_name, event, thread_id, run_id, span_id, started_at, duration_ms,
  payload, stdout, stderr, exit_code, signal, timed_out, decision, reason, error)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** How many of a hook's last runs its health shows. */
export const HOOK_HEALTH_RUNS = 5;

/** How a stored run ended, for health: a timeout, any other failure, or fine. */
function outcomeOf(row: { timed_out: number; error: string | null }): HookOutcome {
  if (row.timed_out === 1) return 'timeout';
  return row.error === null ? 'ok' : 'error';
}

interface HookRunRow {
  id: number;
  hook_id: string;
  hook_name: string;
  event: string;
  thread_id: string | null;
  run_id: string | null;
  span_id: string | null;
  started_at: number;
  duration_ms: number;
  payload: string;
  stdout: string;
  stderr: string;
  exit_code: number | null;
  signal: string | null;
  timed_out: number;
  decision: string;
  reason: string | null;
  error: string | null;
}

function fromRow(row: HookRunRow): HookRunRecord {
  const rec: HookRunRecord = {
    id: row.id,
    hook_id: row.hook_id,
    hook_name: row.hook_name,
    event: row.event,
    started_at: row.started_at,
    duration_ms: row.duration_ms,
    payload: row.payload,
    stdout: row.stdout,
    stderr: row.stderr,
    exit_code: row.exit_code,
    signal: row.signal,
    timed_out: row.timed_out === 1,
    decision: row.decision,
  };
  if (row.thread_id !== null) rec.thread_id = row.thread_id;
  if (row.run_id !== null) rec.run_id = row.run_id;
  if (row.span_id !== null) rec.span_id = row.span_id;
  if (row.reason !== null) rec.reason = row.reason;
  if (row.error !== null) rec.error = row.error;
  return rec;
}

/**
 * Creates the store. Contract: payload/stdout/stderr longer than HOOK_OUTPUT_CAP are stored truncated,
 * with a marker. A run record is audit data on the hot path of every tool call: it commits without
 * waiting for an fsync (it survives a killed process; the run's next durable commit covers power loss).
 * A row inserted with `defer` gets its id at once (from a block of ids reserved in `sqlite_sequence`,
 * which no other writer of the database then uses) and is written with the rows queued with it, within
 * DEFER_MS, before any read of this store, or at `flush()`.
 */
export function createHookRunStore(db: DatabaseSync, tx?: TransactionRunner): HookRunStore {
  const q = {
    insert: db.prepare(`INSERT INTO hook_runs ${COLUMNS}`),
    insertReserved: db.prepare(`INSERT OR IGNORE INTO hook_runs ${COLUMNS}`),
    // AUTOINCREMENT gives a new row an id above `seq`: raising it keeps the ids below it for us.
    reserve: db.prepare(
      `UPDATE sqlite_sequence SET seq = max(seq, (SELECT coalesce(max(id), 0) FROM hook_runs)) + ?
       WHERE name = 'hook_runs' RETURNING seq`,
    ),
    firstReserve: db.prepare(
      `INSERT INTO sqlite_sequence (name, seq)
       SELECT 'hook_runs', coalesce(max(id), 0) + ? FROM hook_runs RETURNING seq`,
    ),
    get: db.prepare('SELECT * FROM hook_runs WHERE id = ?'),
    recent: db.prepare(
      `SELECT * FROM hook_runs WHERE ($hook IS NULL OR hook_id = $hook) AND ($thread IS NULL OR thread_id = $thread)
       ORDER BY started_at DESC, id DESC LIMIT $limit`,
    ),
    // A cancelled run says nothing about the hook (the user stopped the run).
    lastOf: db.prepare(
      `SELECT timed_out, error FROM hook_runs WHERE hook_id = ? AND (error IS NULL OR error != 'cancelled')
       ORDER BY started_at DESC, id DESC LIMIT ?`,
    ),
  };
  const write = <T>(fn: () => T): T => (tx ? tx.run(fn, { deferSync: true }) : fn());
  const row = (id: number | null, run: Omit<HookRunRecord, 'id'>): SQLInputValue[] => [
    id,
    run.hook_id,
    run.hook_name,
    run.event,
    run.thread_id ?? null,
    run.run_id ?? null,
    run.span_id ?? null,
    run.started_at,
    run.duration_ms,
    capOutput(run.payload),
    capOutput(run.stdout),
    capOutput(run.stderr),
    run.exit_code,
    run.signal,
    run.timed_out ? 1 : 0,
    run.decision,
    run.reason ?? null,
    run.error ?? null,
  ];
  let ids = { next: 0, end: 0 };
  let queue: SQLInputValue[][] = [];
  let timer: NodeJS.Timeout | undefined;

  function reserveId(): number {
    if (ids.next >= ids.end) {
      const seq = write(() => {
        // Reserved only if this commits (an outer transaction joined may still roll back).
        tx?.onRollback(() => (ids = { next: 0, end: 0 }));
        const r = (q.reserve.get(ID_BLOCK) ?? q.firstReserve.get(ID_BLOCK)) as { seq: number };
        return Number(r.seq);
      });
      ids = { next: seq - ID_BLOCK + 1, end: seq + 1 };
    }
    return ids.next++;
  }

  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (queue.length === 0) return;
    const rows = queue;
    queue = [];
    // Kept for the next flush when their transaction does not commit (a busy database, or an outer
    // transaction this one joined that rolls back). A row written twice stays one: its id is its own.
    let kept = false;
    const keep = () => {
      if (kept) return;
      kept = true;
      queue = rows.concat(queue);
    };
    try {
      write(() => {
        tx?.onRollback(keep);
        for (const r of rows) q.insertReserved.run(...r);
      });
    } catch (err) {
      keep();
      throw err;
    }
  }

  // Deferred rows are written before any read, so this process always reads what it inserted.
  const flushed = () => {
    try {
      flush();
    } catch {
      // A busy or closed database: the read below reports it, or reads what is stored.
    }
  };

  return {
    insert(run, opts) {
      if (!opts?.defer) {
        const r = write(() => q.insert.run(...row(null, run)));
        return Number(r.lastInsertRowid);
      }
      const id = reserveId();
      queue.push(row(id, run));
      timer ??= setTimeout(flushed, DEFER_MS).unref();
      return id;
    },
    flush,
    get(id) {
      flushed();
      const row = q.get.get(id) as HookRunRow | undefined;
      return row ? fromRow(row) : undefined;
    },
    recent(opts = {}) {
      flushed();
      const rows = q.recent.all({
        hook: opts.hookId ?? null,
        thread: opts.threadId ?? null,
        limit: opts.limit ?? 100,
      });
      return (rows as unknown as HookRunRow[]).map(fromRow);
    },
    health(hookIds, n) {
      flushed();
      const out = new Map<string, HookHealth>();
      for (const id of new Set(hookIds)) {
        const rows = q.lastOf.all(id, n) as unknown as Array<{
          timed_out: number;
          error: string | null;
        }>;
        if (rows.length === 0) continue;
        const failed = rows.find((r) => r.error !== null);
        out.set(id, {
          last: rows.map(outcomeOf),
          ...(failed ? { last_error: failed.error! } : {}),
        });
      }
      return out;
    },
  };
}

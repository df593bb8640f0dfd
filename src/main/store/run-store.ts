/**
 * The `runs` table: one row per run with its state, metadata and recipe, so a run whose process
 * died can be found and marked interrupted on the next start (docs/events.md#run-rescue).
 */
import { hostname } from 'node:os';
import type { DatabaseSync } from 'node:sqlite';

/** One stored run. */
export interface RunRecord {
  run_id: string;
  thread_id: string;
  state: string;
  stop_reason: string | null;
  metadata: Record<string, string>;
  recipe: string | null;
  owner_pid: number;
  owner_host: string;
  created_at: number;
  ended_at: number | null;
}

interface RunRow extends Omit<RunRecord, 'metadata' | 'run_id'> {
  id: string;
  metadata: string;
}

export interface RunStore {
  /** Records a run starting in this process (state `running`). */
  create(run: {
    runId: string;
    threadId: string;
    metadata?: Record<string, string>;
    recipe?: string;
  }): void;
  /** Sets the final state. Contract: a run already finished keeps its first final state. */
  finish(runId: string, state: string, stopReason: string): void;
  /** Merges `patch` into the run's metadata; returns the result. */
  mergeMetadata(runId: string, patch: Record<string, string>): Record<string, string>;
  get(runId: string): RunRecord | undefined;
  /** The thread's runs, newest first. */
  forThread(threadId: string): RunRecord[];
  /** Runs still marked `running`. */
  running(): RunRecord[];
}

function fromRow(row: RunRow): RunRecord {
  const { id, metadata, ...rest } = row;
  return { run_id: id, metadata: JSON.parse(metadata) as Record<string, string>, ...rest };
}

/** Creates the store over the `runs` table. */
export function createRunStore(db: DatabaseSync, now: () => number): RunStore {
  const host = hostname();
  const q = {
    insert: db.prepare(
      `INSERT INTO runs (id, thread_id, state, metadata, recipe, owner_pid, owner_host, created_at)
       VALUES (?, ?, 'running', ?, ?, ?, ?, ?)`,
    ),
    finish: db.prepare(
      `UPDATE runs SET state = ?, stop_reason = ?, ended_at = ? WHERE id = ? AND ended_at IS NULL`,
    ),
    get: db.prepare('SELECT * FROM runs WHERE id = ?'),
    setMeta: db.prepare('UPDATE runs SET metadata = ? WHERE id = ?'),
    forThread: db.prepare(
      'SELECT * FROM runs WHERE thread_id = ? ORDER BY created_at DESC, rowid DESC',
    ),
    running: db.prepare("SELECT * FROM runs WHERE state = 'running'"),
  };
  const get = (runId: string) => {
    const row = q.get.get(runId) as RunRow | undefined;
    return row ? fromRow(row) : undefined;
  };
  return {
    create({ runId, threadId, metadata, recipe }) {
      q.insert.run(
        runId,
        threadId,
        JSON.stringify(metadata ?? {}),
        recipe ?? null,
        process.pid,
        host,
        now(),
      );
    },
    finish(runId, state, stopReason) {
      q.finish.run(state, stopReason, now(), runId);
    },
    mergeMetadata(runId, patch) {
      const merged = { ...(get(runId)?.metadata ?? {}), ...patch };
      q.setMeta.run(JSON.stringify(merged), runId);
      return merged;
    },
    get,
    forThread: (threadId) => (q.forThread.all(threadId) as unknown as RunRow[]).map(fromRow),
    running: () => (q.running.all() as unknown as RunRow[]).map(fromRow),
  };
}

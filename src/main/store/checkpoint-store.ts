/** The checkpoints table: every agent write's content before and after it (docs/tools.md#checkpoints). */
import type { DatabaseSync } from 'node:sqlite';
import type { TransactionRunner } from './transaction.ts';

/** One agent write as it was checkpointed. */
export interface CheckpointRecord {
  id: number;
  thread_id: string;
  run_id: string;
  tool_call_id: string;
  /** The thread's workspace root; `path` is shown relative to it when inside. */
  workspace: string;
  path: string;
  /** The bytes before the write; null when the file did not exist. */
  before: Buffer | null;
  /** False when the file was too large or unreadable to keep: the write cannot be reverted. */
  before_known: boolean;
  after: Buffer;
  created_at: number;
  reverted_at: number | null;
}

export type NewCheckpoint = Omit<CheckpointRecord, 'id' | 'created_at' | 'reverted_at'>;

export interface CheckpointStore {
  /** Stores one write. Contract: returns its id; ids grow with time. */
  add(c: NewCheckpoint): number;
  /** A thread's checkpoints, oldest first. */
  list(threadId: string): CheckpointRecord[];
  markReverted(ids: readonly number[]): void;
}

interface Row {
  id: number;
  thread_id: string;
  run_id: string;
  tool_call_id: string;
  workspace: string;
  path: string;
  before: Uint8Array | null;
  before_known: number;
  after: Uint8Array;
  created_at: number;
  reverted_at: number | null;
}

const fromRow = (r: Row): CheckpointRecord => ({
  ...r,
  before: r.before === null ? null : Buffer.from(r.before),
  before_known: r.before_known === 1,
  after: Buffer.from(r.after),
});

/** Creates the store over `db`. */
export function createCheckpointStore(
  db: DatabaseSync,
  tx: TransactionRunner,
  now: () => number = Date.now,
): CheckpointStore {
  const q = {
    add: db.prepare(
      `INSERT INTO checkpoints (thread_id, run_id, tool_call_id, workspace, path, before, before_known, after, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    list: db.prepare('SELECT * FROM checkpoints WHERE thread_id = ? ORDER BY id'),
    revert: db.prepare('UPDATE checkpoints SET reverted_at = ? WHERE id = ?'),
  };
  return {
    add(c) {
      const r = q.add.run(
        c.thread_id,
        c.run_id,
        c.tool_call_id,
        c.workspace,
        c.path,
        c.before,
        c.before_known ? 1 : 0,
        c.after,
        now(),
      );
      return Number(r.lastInsertRowid);
    },
    list: (threadId) => (q.list.all(threadId) as unknown as Row[]).map(fromRow),
    markReverted(ids) {
      const at = now();
      tx.run(() => ids.forEach((id) => q.revert.run(at, id)));
    },
  };
}

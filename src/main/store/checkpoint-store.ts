/** The checkpoints table: every agent write's content before and after it (docs/tools.md#checkpoints). */
import type { DatabaseSync } from 'node:sqlite';
import type { TransactionRunner } from './transaction.ts';

/** One agent write as it was checkpointed. */
export interface CheckpointRecord {
  id: number;
  thread_id: string;
  run_id: string;
  tool_call_id: string;
  /** The thread's workspace root, or the added working directory holding the file; `path` is shown relative to the workspace when inside. */
  workspace: string;
  path: string;
  /** The bytes before the write; null when the file did not exist. */
  before: Buffer | null;
  /** False when the file was too large or unreadable to keep: the write cannot be reverted. */
  before_known: boolean;
  /** For a command's change: empty when the command deleted the file (`after_mode` null). */
  after: Buffer;
  /** 'execute': a file a command changed, from the shadow snapshots (docs/tools.md#checkpoints). */
  kind: 'write' | 'execute';
  /** Git modes of a command's change (`120000` a symlink whose content is its target); null: absent. */
  before_mode: string | null;
  after_mode: string | null;
  created_at: number;
  reverted_at: number | null;
}

export type NewCheckpoint = Omit<
  CheckpointRecord,
  'id' | 'created_at' | 'reverted_at' | 'kind' | 'before_mode' | 'after_mode'
> &
  Partial<Pick<CheckpointRecord, 'kind' | 'before_mode' | 'after_mode'>>;

/** The snapshots around one execute call: both trees, or why none was taken. */
export interface CommandSnapshotRecord {
  thread_id: string;
  run_id: string;
  tool_call_id: string;
  workspace: string;
  before_tree: string | null;
  after_tree: string | null;
  skipped: string | null;
}

export interface CheckpointStore {
  /** Stores one write. Contract: returns its id; ids grow with time. */
  add(c: NewCheckpoint): number;
  /** A thread's checkpoints, oldest first. */
  list(threadId: string): CheckpointRecord[];
  markReverted(ids: readonly number[]): void;
  /** Stores a command's snapshots and, as checkpoints of kind 'execute', the files it changed. */
  addCommand(snapshot: CommandSnapshotRecord, files: readonly NewCheckpoint[]): void;
  /** A thread's command snapshots, oldest first. */
  listCommands(threadId: string): CommandSnapshotRecord[];
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
  kind: 'write' | 'execute';
  before_mode: string | null;
  after_mode: string | null;
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
      `INSERT INTO checkpoints (thread_id, run_id, tool_call_id, workspace, path, before, before_known, after, kind, before_mode, after_mode, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    addCommand: db.prepare(
      `INSERT INTO command_snapshots (thread_id, run_id, tool_call_id, workspace, before_tree, after_tree, skipped, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    listCommands: db.prepare(
      'SELECT thread_id, run_id, tool_call_id, workspace, before_tree, after_tree, skipped FROM command_snapshots WHERE thread_id = ? ORDER BY id',
    ),
    list: db.prepare('SELECT * FROM checkpoints WHERE thread_id = ? ORDER BY id'),
    revert: db.prepare('UPDATE checkpoints SET reverted_at = ? WHERE id = ?'),
  };
  const add = (c: NewCheckpoint): number => {
    const r = q.add.run(
      c.thread_id,
      c.run_id,
      c.tool_call_id,
      c.workspace,
      c.path,
      c.before,
      c.before_known ? 1 : 0,
      c.after,
      c.kind ?? 'write',
      c.before_mode ?? null,
      c.after_mode ?? null,
      now(),
    );
    return Number(r.lastInsertRowid);
  };
  return {
    add,
    list: (threadId) => (q.list.all(threadId) as unknown as Row[]).map(fromRow),
    markReverted(ids) {
      const at = now();
      tx.run(() => ids.forEach((id) => q.revert.run(at, id)));
    },
    addCommand(s, files) {
      tx.run(() => {
        q.addCommand.run(
          s.thread_id,
          s.run_id,
          s.tool_call_id,
          s.workspace,
          s.before_tree,
          s.after_tree,
          s.skipped,
          now(),
        );
        files.forEach((f) => add({ ...f, kind: 'execute' }));
      });
    },
    listCommands: (threadId) => q.listCommands.all(threadId) as unknown as CommandSnapshotRecord[],
  };
}

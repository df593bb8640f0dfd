/** Nestable transactions over one DatabaseSync connection. */
import type { DatabaseSync } from 'node:sqlite';
import type { WalSyncer } from './wal-sync.ts';

/** Runs functions in SQLite transactions; nested calls join the outermost one. */
export interface TransactionOptions {
  /**
   * Commit without waiting for the disk (`synchronous=NORMAL` for this one transaction). In WAL mode
   * the commit still survives a killed process; only a power loss before the next FULL commit (which
   * fsyncs the WAL, earlier frames included) could lose it. For writes a durable one follows at once.
   */
  deferSync?: boolean;
  /**
   * Commit without waiting for the disk, then fdatasync the WAL on the thread pool (wal-sync.ts):
   * survives a killed process at once and a power loss a moment later, without blocking the caller.
   * Falls back to a synchronous commit for an in-memory database or after a background sync failed.
   */
  syncInBackground?: boolean;
}

export interface TransactionRunner {
  run<T>(fn: () => T, opts?: TransactionOptions): T;
  /**
   * Registers `cb` to run if the current outermost transaction rolls back (or immediately never,
   * when called outside a transaction). Used to drop in-memory state that SQLite no longer backs.
   */
  onRollback(cb: () => void): void;
}

/**
 * Creates the runner. Contract: BEGIN IMMEDIATE … COMMIT; a throw anywhere inside rolls back the
 * whole outermost transaction and rethrows; `fn` must be synchronous (node:sqlite is).
 */
export function createTransactionRunner(
  db: DatabaseSync,
  wal?: WalSyncer,
  afterCommit?: () => void,
): TransactionRunner {
  let depth = 0;
  let rollbacks: (() => void)[] = [];
  return {
    run<T>(fn: () => T, opts: TransactionOptions = {}): T {
      if (depth > 0) {
        depth++;
        try {
          return fn();
        } finally {
          depth--;
        }
      }
      // The pragma cannot change inside a transaction; a nested call joins the outer one's mode.
      const background = opts.syncInBackground === true && wal !== undefined && !wal.failed;
      const relaxed = opts.deferSync === true || background;
      if (relaxed) db.exec('PRAGMA synchronous = NORMAL');
      db.exec('BEGIN IMMEDIATE');
      depth = 1;
      try {
        const result = fn();
        if (result instanceof Promise) throw new Error('transaction(fn): fn must be synchronous');
        db.exec('COMMIT');
        if (background) wal.schedule();
        afterCommit?.();
        rollbacks = [];
        return result;
      } catch (err) {
        if (db.isTransaction) db.exec('ROLLBACK');
        const cbs = rollbacks;
        rollbacks = [];
        for (const cb of cbs) cb();
        throw err;
      } finally {
        depth = 0;
        if (relaxed) db.exec('PRAGMA synchronous = FULL');
      }
    },
    onRollback(cb) {
      if (depth > 0) rollbacks.push(cb);
    },
  };
}

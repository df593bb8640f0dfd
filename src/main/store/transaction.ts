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
  /** Runs `fn` in a transaction now; writes queued with `later` are committed first, in their own. */
  run<T>(fn: () => T, opts?: TransactionOptions): T;
  /**
   * Queues a write to commit at the end of this turn of the event loop (`setImmediate`), or earlier
   * when another transaction starts or `flushLater` is called, whichever comes first: writes queued
   * in one turn share one commit, made durable as the strictest of them asks. A write that throws is
   * undone alone and told to its `onError`, and so is every later write of the batch with its `key`
   * (writes of one thread stay in order, with no gap).
   */
  later(key: string, fn: () => void, opts: TransactionOptions, onError: (err: unknown) => void): void;
  /** Commits the queued writes now (nothing when none are queued). */
  flushLater(): void;
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
  let queued: {
    key: string;
    fn: () => void;
    opts: TransactionOptions;
    onError: (err: unknown) => void;
  }[] = [];

  function flushLater(): void {
    if (queued.length === 0 || depth > 0) return;
    const batch = queued;
    queued = [];
    // Relaxed only when every write allows it; synced in the background when one asks for it.
    const opts: TransactionOptions = batch.every((w) => w.opts.deferSync || w.opts.syncInBackground)
      ? {
          deferSync: batch.every((w) => w.opts.deferSync),
          syncInBackground: batch.some((w) => w.opts.syncInBackground),
        }
      : {};
    const failed = new Map<(typeof batch)[number], unknown>();
    try {
      commit(() => {
        const broken = new Map<string, unknown>();
        for (const w of batch) {
          if (broken.has(w.key)) {
            failed.set(w, broken.get(w.key));
            continue;
          }
          db.exec('SAVEPOINT later');
          try {
            w.fn();
          } catch (err) {
            db.exec('ROLLBACK TO later');
            broken.set(w.key, err);
            failed.set(w, err);
          }
          db.exec('RELEASE later');
        }
      }, opts);
    } catch (err) {
      for (const w of batch) failed.set(w, err);
    }
    for (const [w, err] of failed) w.onError(err);
  }

  function commit<T>(fn: () => T, opts: TransactionOptions): T {
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
  }

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
      flushLater();
      return commit(fn, opts);
    },
    later(key, fn, opts, onError) {
      if (queued.length === 0) setImmediate(flushLater);
      queued.push({ key, fn, opts, onError });
    },
    flushLater,
    onRollback(cb) {
      if (depth > 0) rollbacks.push(cb);
    },
  };
}

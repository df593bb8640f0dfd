/** Opens workbench.db (node:sqlite) and wires the stores over one connection. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { THREAD_SWEEP_MS, THREAD_TTL_MS } from '../../shared/constants.ts';
import type { Database, HookRunStore, SpanStore } from './types.ts';
import { migrate } from './schema.ts';
import { createTransactionRunner } from './transaction.ts';
import { createWalSyncer } from './wal-sync.ts';
import { CHECKPOINT_PAGES, createWalCheckpointer } from './wal-checkpoint.ts';
import { createThreadStore, type SqliteThreadStore } from './thread-store.ts';
import { createSpanStore } from './span-store.ts';
import { createHookRunStore } from './hook-run-store.ts';
import { createLeaseStore, type LeaseStore } from './lease-store.ts';
import { createRunStore, type RunStore } from './run-store.ts';
import { createEventStore, type EventStore } from './event-store.ts';
import { createWebhookStore, type WebhookStore } from './webhook-store.ts';
import { createCheckpointStore, type CheckpointStore } from './checkpoint-store.ts';

/** A running thread's lease is refreshed this often and counts as abandoned after LEASE_STALE_MS. */
const LEASE_HEARTBEAT_MS = 5_000;
const LEASE_STALE_MS = 30_000;

export interface OpenDatabaseOptions {
  /** Clock for timestamps and the cache TTL (tests inject one). */
  now?: () => number;
  cacheTtlMs?: number;
  sweepMs?: number;
  /** How long a write waits for another connection's lock, ms. */
  busyTimeoutMs?: number;
  /** Lease heartbeat period and staleness bound, ms (lease-store.ts). */
  leaseHeartbeatMs?: number;
  leaseStaleMs?: number;
  /** Commits before the first WAL checkpoint on the worker thread (wal-checkpoint.ts). */
  checkpointAfterCommits?: number;
}

/** The Database port plus what owners and tests need. */
export interface SqliteDatabase extends Database {
  readonly threads: SqliteThreadStore;
  readonly spans: SpanStore;
  readonly hookRuns: HookRunStore;
  /** Which process runs which thread (one run per thread across processes). */
  readonly leases: LeaseStore;
  /** Commits the writes queued to be written later (`appendMessagesLater`) now. */
  commitQueued(): void;
  /** Runs with their state and metadata (docs/events.md). */
  readonly runs: RunStore;
  /** The event feed and its webhook deliveries (docs/events.md). */
  readonly events: EventStore;
  readonly webhooks: WebhookStore;
  /** Agent writes' content before and after, for revert. */
  readonly checkpoints: CheckpointStore;
  readonly file: string;
  /** `PRAGMA integrity_check` rows; `['ok']` when healthy. */
  integrityCheck(): string[];
}

/**
 * Opens (creating if needed) and migrates the database at `file` (`:memory:` allowed).
 * Contract: WAL + synchronous=FULL, so a committed append survives kill -9 and power loss; throws
 * a clear Error for a schema newer than this build.
 */
export function openDatabase(file: string, opts: OpenDatabaseOptions = {}): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  // Loaded at first open, not with the module: node:sqlite cannot be part of the CLI's startup
  // snapshot (docs/performance.md).
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
  const db = new DatabaseSync(file, { timeout: opts.busyTimeoutMs ?? 5000 });
  let closed = false;
  try {
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    // A deleted thread is gone from the file, not left readable in its free pages.
    db.exec('PRAGMA secure_delete = ON');
    db.exec(`PRAGMA busy_timeout = ${Math.floor(opts.busyTimeoutMs ?? 5000)}`);
    migrate(db, file);
  } catch (err) {
    db.close();
    throw err;
  }
  const wal = file === ':memory:' ? undefined : createWalSyncer(`${file}-wal`);
  // Checkpoints run on a worker, not inside a commit; should it fail, SQLite's own come back.
  const checkpointer =
    file === ':memory:'
      ? undefined
      : createWalCheckpointer(file, {
          firstAfter: opts.checkpointAfterCommits,
          onFailed: () => {
            if (!closed) db.exec(`PRAGMA wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
          },
        });
  if (checkpointer) db.exec('PRAGMA wal_autocheckpoint = 0');
  const tx = createTransactionRunner(db, wal, checkpointer?.committed);
  const leases = createLeaseStore(db, tx, {
    now: opts.now ?? Date.now,
    heartbeatMs: opts.leaseHeartbeatMs ?? LEASE_HEARTBEAT_MS,
    staleMs: opts.leaseStaleMs ?? LEASE_STALE_MS,
  });
  const threads = createThreadStore(db, tx, {
    now: opts.now ?? Date.now,
    cacheTtlMs: opts.cacheTtlMs ?? THREAD_TTL_MS,
    sweepMs: opts.sweepMs ?? THREAD_SWEEP_MS,
    runningElsewhere: (threadId) => leases.heldElsewhere(threadId) !== undefined,
  });
  const spans = createSpanStore(db, tx);
  const hookRuns = createHookRunStore(db, tx);
  const runs = createRunStore(db, opts.now ?? Date.now);
  const events = createEventStore(db, opts.now ?? Date.now);
  const webhooks = createWebhookStore(db, tx, opts.now ?? Date.now);
  const checkpoints = createCheckpointStore(db, tx, opts.now);
  return {
    file,
    threads,
    spans,
    hookRuns,
    leases,
    runs,
    events,
    webhooks,
    checkpoints,
    transaction: (fn, txOpts) => tx.run(fn, txOpts),
    commitQueued: () => tx.flushLater(),
    whenDurable: () => {
      tx.flushLater();
      return wal?.idle() ?? Promise.resolve();
    },
    integrityCheck: () =>
      (db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[]).map(
        (r) => r.integrity_check,
      ),
    close() {
      if (closed) return;
      tx.flushLater();
      closed = true;
      leases.dispose();
      wal?.close();
      checkpointer?.close();
      threads.dispose();
      db.close();
    },
  };
}

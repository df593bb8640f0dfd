/**
 * One run per thread across processes: a lease row per running thread, owned by one workbench
 * process (pid + host + a random nonce) and kept fresh by a heartbeat. Another process may take a
 * lease only when its owner is gone (its pid is dead on this host) or its heartbeat is stale.
 * docs/security.md ("Two processes on one thread").
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { DatabaseSync } from 'node:sqlite';
import type { TransactionRunner } from './transaction.ts';

// Leases only matter between live processes: after a power loss nobody holds one, so their commits
// skip the fsync (a killed process's lease still survives, and is taken over once its pid is gone).
const NO_FSYNC = { deferSync: true };

/** Who holds a lease another process asked for. */
export interface LeaseHolder {
  pid: number;
  host: string;
}

export interface LeaseStore {
  /**
   * Takes the thread's lease for this process.
   * Contract: returns undefined when taken (or already held by this process), or the live holder
   * when another process holds it; a dead or stale holder's lease is taken over.
   */
  acquire(threadId: string): LeaseHolder | undefined;
  /** Gives the lease back (only this process's own). */
  release(threadId: string): void;
  /** The live holder when another process runs the thread, else undefined. */
  heldElsewhere(threadId: string): LeaseHolder | undefined;
  /** Stops the heartbeat and gives back every lease this process holds. */
  dispose(): void;
}

export interface LeaseStoreOptions {
  now: () => number;
  /** How often a held lease's heartbeat is written, ms. */
  heartbeatMs: number;
  /** A heartbeat older than this means the holder is gone, ms. */
  staleMs: number;
}

interface LeaseRow {
  thread_id: string;
  owner_pid: number;
  owner_host: string;
  owner_nonce: string;
  heartbeat_at: number;
}

/** True while `pid` names a process on this host (EPERM: it exists but is not ours). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates the store over the `thread_leases` table. Contract: the heartbeat timer never keeps the process alive. */
export function createLeaseStore(
  db: DatabaseSync,
  tx: TransactionRunner,
  opts: LeaseStoreOptions,
): LeaseStore {
  const nonce = randomUUID();
  const host = hostname();
  const held = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const q = {
    get: db.prepare('SELECT * FROM thread_leases WHERE thread_id = ?'),
    put: db.prepare(
      `INSERT INTO thread_leases (thread_id, owner_pid, owner_host, owner_nonce, heartbeat_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(thread_id) DO UPDATE SET owner_pid = excluded.owner_pid,
         owner_host = excluded.owner_host, owner_nonce = excluded.owner_nonce,
         heartbeat_at = excluded.heartbeat_at`,
    ),
    beat: db.prepare('UPDATE thread_leases SET heartbeat_at = ? WHERE owner_nonce = ?'),
    drop: db.prepare('DELETE FROM thread_leases WHERE thread_id = ? AND owner_nonce = ?'),
  };

  function liveHolder(row: LeaseRow | undefined): LeaseHolder | undefined {
    if (!row || row.owner_nonce === nonce) return undefined;
    if (row.heartbeat_at < opts.now() - opts.staleMs) return undefined;
    if (row.owner_host === host && !pidAlive(row.owner_pid)) return undefined;
    return { pid: row.owner_pid, host: row.owner_host };
  }

  function startHeartbeat(): void {
    if (timer) return;
    timer = setInterval(() => {
      try {
        tx.run(() => q.beat.run(opts.now(), nonce), NO_FSYNC);
      } catch {
        // A busy database skips one beat; the next one (well inside staleMs) catches up.
      }
    }, opts.heartbeatMs);
    timer.unref();
  }

  function stopHeartbeatIfIdle(): void {
    if (held.size || !timer) return;
    clearInterval(timer);
    timer = undefined;
  }

  return {
    acquire(threadId) {
      const holder = tx.run(() => {
        const other = liveHolder(q.get.get(threadId) as LeaseRow | undefined);
        if (!other) q.put.run(threadId, process.pid, host, nonce, opts.now());
        return other;
      }, NO_FSYNC);
      if (holder) return holder;
      held.add(threadId);
      startHeartbeat();
      return undefined;
    },
    release(threadId) {
      held.delete(threadId);
      tx.run(() => q.drop.run(threadId, nonce), NO_FSYNC);
      stopHeartbeatIfIdle();
    },
    heldElsewhere: (threadId) => liveHolder(q.get.get(threadId) as LeaseRow | undefined),
    dispose() {
      for (const threadId of [...held]) this.release(threadId);
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

/**
 * The `webhook_deliveries` table: one row per (event, webhook URL) with its attempts and next try,
 * so a delivery survives a restart and two processes never post the same one at once
 * (docs/events.md#webhooks).
 */
import type { DatabaseSync } from 'node:sqlite';
import type { TransactionRunner } from './transaction.ts';

/** A delivery claimed for one attempt. */
export interface WebhookDelivery {
  id: number;
  event_seq: number;
  url: string;
  attempts: number;
}

export interface WebhookStore {
  enqueue(eventSeq: number, url: string): void;
  /**
   * Claims up to `limit` due pending deliveries for `leaseMs` (another process skips them meanwhile).
   * Contract: a claim whose process died is due again once its lease ends.
   */
  claimDue(limit: number, leaseMs: number): WebhookDelivery[];
  delivered(id: number): void;
  /** Records a failed attempt: retried at `nextAt`, or given up (`state: failed`) when undefined. */
  failed(id: number, error: string, nextAt: number | undefined): void;
  /** When the next pending delivery is due, if any. */
  nextDue(): number | undefined;
  /** Delivery rows of an event (for tests and `events --json` inspection). */
  forEvent(
    eventSeq: number,
  ): { url: string; state: string; attempts: number; last_error: string | null }[];
}

/** Creates the store. */
export function createWebhookStore(
  db: DatabaseSync,
  tx: TransactionRunner,
  now: () => number,
): WebhookStore {
  const q = {
    insert: db.prepare(
      `INSERT INTO webhook_deliveries (event_seq, url, state, next_at) VALUES (?, ?, 'pending', ?)`,
    ),
    due: db.prepare(
      `SELECT id, event_seq, url, attempts FROM webhook_deliveries
       WHERE state = 'pending' AND next_at <= $now AND claimed_until <= $now ORDER BY id LIMIT $limit`,
    ),
    claim: db.prepare('UPDATE webhook_deliveries SET claimed_until = ? WHERE id = ?'),
    delivered: db.prepare(
      `UPDATE webhook_deliveries SET state = 'delivered', attempts = attempts + 1, delivered_at = ?,
       claimed_until = 0, last_error = NULL WHERE id = ?`,
    ),
    failed: db.prepare(
      `UPDATE webhook_deliveries SET state = ?, attempts = attempts + 1, next_at = ?, claimed_until = 0,
       last_error = ? WHERE id = ?`,
    ),
    nextDue: db.prepare(
      `SELECT MIN(MAX(next_at, claimed_until)) AS at FROM webhook_deliveries WHERE state = 'pending'`,
    ),
    forEvent: db.prepare(
      'SELECT url, state, attempts, last_error FROM webhook_deliveries WHERE event_seq = ? ORDER BY id',
    ),
  };
  return {
    enqueue: (eventSeq, url) => void q.insert.run(eventSeq, url, now()),
    // Without an fsync: a claim lost to a power loss only means the delivery is attempted again.
    claimDue(limit, leaseMs) {
      return tx.run(
        () => {
          const t = now();
          const rows = q.due.all({ now: t, limit }) as unknown as WebhookDelivery[];
          for (const r of rows) q.claim.run(t + leaseMs, r.id);
          return rows;
        },
        { deferSync: true },
      );
    },
    delivered: (id) => void q.delivered.run(now(), id),
    failed(id, error, nextAt) {
      q.failed.run(
        nextAt === undefined ? 'failed' : 'pending',
        nextAt ?? now(),
        error.slice(0, 500),
        id,
      );
    },
    nextDue() {
      const at = (q.nextDue.get() as { at: number | null }).at;
      return at === null ? undefined : at;
    },
    forEvent: (eventSeq) =>
      q.forEvent.all(eventSeq) as unknown as {
        url: string;
        state: string;
        attempts: number;
        last_error: string | null;
      }[],
  };
}

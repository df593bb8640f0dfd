/**
 * Delivers queued webhook posts (docs/events.md#webhooks): each feed event a webhook subscribes to
 * is POSTed as JSON, retried with bounded exponential backoff; the delivery state lives in the
 * database, so whichever workbench process starts next continues where a stopped one left off.
 */
import { createHmac } from 'node:crypto';
import type { SqliteDatabase } from '../store/database.ts';
import type { WebhookSettings } from '../../shared/types/index.ts';
import { errorMessage } from '../errors.ts';

/** Attempts per delivery before it is marked failed. */
export const WEBHOOK_MAX_ATTEMPTS = 8;
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 5 * 60_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** How long a claimed delivery stays with this process (longer than one request). */
const CLAIM_MS = REQUEST_TIMEOUT_MS + 5_000;

/** The wait before attempt `attempt + 1` (attempt counts from 1): 0.5 s, 1 s, 2 s … capped at 5 min. */
export function webhookBackoff(attempt: number): number {
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
}

export interface WebhookDispatcher {
  /** Looks for due deliveries now (called after new ones are queued). */
  kick(): void;
  /**
   * Makes one last attempt at what is due (a `workbench run` ends right after its run), then stops
   * and waits at most `waitMs` for posts in flight; what fails stays queued for the next process.
   */
  close(waitMs?: number): Promise<void>;
}

export interface WebhookDispatcherOptions {
  db: SqliteDatabase;
  webhooks: () => readonly WebhookSettings[];
  fetch?: typeof fetch;
}

/** Starts the dispatcher. Contract: its timer never keeps the process alive; failures are stored, never thrown. */
export function createWebhookDispatcher(opts: WebhookDispatcherOptions): WebhookDispatcher {
  const doFetch = opts.fetch ?? fetch;
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  async function post(id: number, eventSeq: number, url: string, attempts: number): Promise<void> {
    const event = opts.db.events.get(eventSeq);
    if (!event) return opts.db.webhooks.failed(id, 'event no longer stored', undefined);
    const body = JSON.stringify(event);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-workbench-event': event.type,
      'x-workbench-delivery': String(id),
    };
    const secret = opts.webhooks().find((w) => w.url === url)?.secret;
    if (secret)
      headers['x-workbench-signature-256'] =
        `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    let error: string | undefined;
    try {
      const res = await doFetch(url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      await res.body?.cancel();
      if (!res.ok) error = `HTTP ${res.status}`;
    } catch (err) {
      error = errorMessage(err);
    }
    try {
      if (!error) opts.db.webhooks.delivered(id);
      else {
        const attempt = attempts + 1;
        const next =
          attempt >= WEBHOOK_MAX_ATTEMPTS ? undefined : Date.now() + webhookBackoff(attempt);
        opts.db.webhooks.failed(id, error, next);
      }
    } catch {
      // The database closed under us: the claim lapses and another start picks the delivery up.
    }
  }

  function run(): void {
    timer = undefined;
    if (closed) return;
    let due;
    try {
      due = opts.db.webhooks.claimDue(16, CLAIM_MS);
    } catch {
      return schedule(1000);
    }
    for (const d of due) {
      const p: Promise<void> = post(d.id, d.event_seq, d.url, d.attempts).finally(() => {
        inFlight.delete(p);
        schedule();
      });
      inFlight.add(p);
    }
    schedule();
  }

  function schedule(delayMs?: number): void {
    if (closed) return;
    let wait = delayMs;
    if (wait === undefined) {
      const at = opts.db.webhooks.nextDue();
      if (at === undefined) return;
      wait = Math.max(0, at - Date.now());
    }
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, Math.min(wait, MAX_DELAY_MS));
    timer.unref();
  }

  // Deliveries an earlier process left pending continue now.
  schedule(0);

  return {
    kick: () => schedule(0),
    async close(waitMs = 2000) {
      if (timer) clearTimeout(timer);
      run();
      closed = true;
      if (timer) clearTimeout(timer);
      if (inFlight.size === 0) return;
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise((r) => setTimeout(r, waitMs).unref()),
      ]);
    },
  };
}

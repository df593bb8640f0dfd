/**
 * Follows the feed other processes write (docs/events.md): polls the events table (WAL makes each
 * committed batch visible to readers at once) and hands every new event to `onEvent`.
 */
import type { FeedEvent } from '../../shared/types/index.ts';
import type { EventStore } from '../store/event-store.ts';

export interface FeedFollowerOptions {
  events: EventStore;
  /** Start after this seq (default: the current end, so only new events). */
  since?: number;
  threadId?: string;
  /** Skip events this process wrote (its own stream already carried them). */
  skipOwn?: boolean;
  intervalMs?: number;
  onEvent: (e: FeedEvent) => void;
}

export interface FeedFollower {
  /** Reads what is new now (the timer does this too). */
  poll(): void;
  stop(): void;
}

/** Starts following. Contract: the timer never keeps the process alive unless `keepAlive`. */
export function followFeed(opts: FeedFollowerOptions & { keepAlive?: boolean }): FeedFollower {
  let cursor = opts.since ?? opts.events.lastSeq();
  const poll = () => {
    for (;;) {
      let batch: FeedEvent[];
      try {
        batch = opts.events.since(cursor, { threadId: opts.threadId });
      } catch {
        return; // busy: the next tick reads it
      }
      for (const e of batch) {
        cursor = e.seq;
        if (opts.skipOwn && e.origin_pid === process.pid) continue;
        opts.onEvent(e);
      }
      if (batch.length < 500) return;
    }
  };
  const timer = setInterval(poll, opts.intervalMs ?? 250);
  if (!opts.keepAlive) timer.unref();
  return { poll, stop: () => clearInterval(timer) };
}

/**
 * The event feed of one workbench process (docs/events.md): records its runs' events, rescues runs
 * a dead process left "running", delivers webhooks and, for the app and `serve`, replays other
 * processes' runs to its own subscribers.
 */
import type { FeedEvent, StreamEvent, WebhookSettings } from '../../shared/types/index.ts';
import type { SqliteDatabase } from '../store/database.ts';
import type { NewFeedEvent } from '../store/event-store.ts';
import { createFeedRecorder } from './feed-recorder.ts';
import { followFeed, type FeedFollower } from './feed-follower.ts';
import { toStreamEvents } from './feed-mapping.ts';
import { rescueRuns } from './run-rescue.ts';
import { createWebhookDispatcher } from './webhook-dispatcher.ts';

export interface FeedServiceOptions {
  db: SqliteDatabase;
  webhooks: () => readonly WebhookSettings[];
  /** Subscribes to this process's stream. */
  subscribe: (listener: (e: StreamEvent) => void) => () => void;
  /** Sends a replayed event of another process to this process's subscribers. */
  emit: (e: StreamEvent) => void;
  /** Replay other processes' runs (the app, `serve`), and look for dead runs while open. */
  follow: boolean;
  /** This process's runs in progress (never rescued). */
  ownRuns?: () => ReadonlySet<string>;
}

/** How often a following face looks for runs whose process died, ms. */
const RESCUE_INTERVAL_MS = 10_000;

export interface FeedService {
  /** Appends an event with no stream counterpart (metadata changes). */
  add(e: NewFeedEvent): void;
  /** Marks runs of dead processes interrupted (also done at start). */
  rescue(ownRuns?: ReadonlySet<string>): void;
  /** Writes the buffered events now (before their thread is deleted). */
  flush(): void;
  close(): Promise<void>;
}

/** Starts the feed. Contract: no timer of it keeps the process alive. */
export function createFeedService(opts: FeedServiceOptions): FeedService {
  const dispatcher = createWebhookDispatcher({ db: opts.db, webhooks: opts.webhooks });
  const recorder = createFeedRecorder({
    db: opts.db,
    webhooks: opts.webhooks,
    onDeliveriesQueued: () => dispatcher.kick(),
  });
  // Replayed events are another process's record already; they must not be appended again.
  let replaying = false;
  const unsubscribe = opts.subscribe((e) => {
    if (!replaying) recorder.record(e);
  });
  const replay = (f: FeedEvent) => {
    replaying = true;
    try {
      for (const e of toStreamEvents(f)) opts.emit(e);
    } finally {
      replaying = false;
    }
  };
  const rescue = (ownRuns?: ReadonlySet<string>) => {
    for (const e of rescueRuns(opts.db, ownRuns)) {
      recorder.add(e);
      // A following face shows the dead run end now (and its thread offers Resume).
      if (opts.follow) replay({ ...e, seq: 0, origin_pid: process.pid, created_at: Date.now() });
    }
  };
  rescue();
  let follower: FeedFollower | undefined;
  let rescueTimer: NodeJS.Timeout | undefined;
  if (opts.follow) {
    follower = followFeed({ events: opts.db.events, skipOwn: true, onEvent: replay });
    // A long-lived face also notices a run whose process dies while it is open.
    rescueTimer = setInterval(() => {
      try {
        rescue(opts.ownRuns?.());
      } catch {
        // busy: the next round
      }
    }, RESCUE_INTERVAL_MS);
    rescueTimer.unref();
  }
  return {
    add: (e) => recorder.add(e),
    rescue,
    flush: () => recorder.flush(),
    async close() {
      follower?.stop();
      clearInterval(rescueTimer);
      unsubscribe();
      recorder.flush();
      await dispatcher.close();
    },
  };
}

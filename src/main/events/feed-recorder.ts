/**
 * Appends a process's run events to the feed (docs/events.md): events are buffered and written in
 * one transaction at most every `FLUSH_DELAY_MS`, together with the webhook deliveries they trigger.
 * The delay keeps the write off the path between a tool's result and the next model request: a
 * round's events are written while the model thinks, not once per tick of the round.
 */
import type { StreamEvent, WebhookSettings } from '../../shared/types/index.ts';
import type { SqliteDatabase } from '../store/database.ts';
import type { NewFeedEvent } from '../store/event-store.ts';
import { toFeedEvent } from './feed-mapping.ts';

export interface FeedRecorderOptions {
  db: SqliteDatabase;
  /** The configured webhooks, read at each flush so a settings change applies at once. */
  webhooks: () => readonly WebhookSettings[];
  /** Called after a flush that queued webhook deliveries. */
  onDeliveriesQueued?: () => void;
}

export interface FeedRecorder {
  /** Buffers the feed event of `e` (if it has one). Contract: never throws, never writes synchronously. */
  record(e: StreamEvent): void;
  /** Appends a feed event that has no stream event (rescue, metadata changes); buffered the same way. */
  add(e: NewFeedEvent): void;
  /** Writes what is buffered now. */
  flush(): void;
}

/** How long an event may wait in the buffer; a follower in another process polls the feed anyway. */
export const FLUSH_DELAY_MS = 25;

/** Creates the recorder. */
export function createFeedRecorder(opts: FeedRecorderOptions): FeedRecorder {
  let buffer: NewFeedEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  function flush(): void {
    clearTimeout(timer);
    timer = undefined;
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    const hooks = opts.webhooks();
    let queued = 0;
    try {
      opts.db.transaction(
        () => {
          for (const stored of opts.db.events.append(batch)) {
            for (const hook of hooks) {
              if (!hook.on.includes(stored.type) && !hook.on.includes('*')) continue;
              opts.db.webhooks.enqueue(stored.seq, hook.url);
              queued++;
            }
          }
        },
        { deferSync: true },
      );
    } catch {
      // The feed is a record for others; a busy or closed database must not disturb the run.
      return;
    }
    if (queued) opts.onDeliveriesQueued?.();
  }

  function add(e: NewFeedEvent): void {
    buffer.push(e);
    timer ??= setTimeout(flush, FLUSH_DELAY_MS);
  }

  return {
    record(e) {
      const f = toFeedEvent(e);
      if (!f) return;
      // run_created carries the run's metadata and recipe, so a follower needs no lookup.
      if (f.type === 'run_created' && f.run_id) {
        let run;
        try {
          run = opts.db.runs.get(f.run_id);
        } catch {
          // A closed database: the event still goes to the buffer (and is dropped at flush).
        }
        if (run)
          f.data = {
            ...f.data,
            metadata: run.metadata,
            ...(run.recipe ? { recipe: run.recipe } : {}),
          };
      }
      add(f);
    },
    add,
    flush,
  };
}

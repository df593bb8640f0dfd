/**
 * Buffers span writes so they cost one SQLite transaction per delay, not one per span start/end, and
 * none between a tool's result and the next model request: spans are written a short delay after
 * the first one queued (while the model works), at run end, or when the trace is read. A crash loses
 * at most the last delay's worth of span updates; open spans are closed at the next start.
 */
import type { SpanRecord } from '../../shared/types/index.ts';
import type { SpanStore } from '../store/types.ts';

export class SpanWriter {
  private readonly queue = new Map<string, SpanRecord>();
  private timer: NodeJS.Timeout | undefined;
  private readonly store: SpanStore;
  private readonly delayMs: number;

  constructor(store: SpanStore, delayMs = 250) {
    this.store = store;
    this.delayMs = delayMs;
  }

  /** Queues the latest version of a span (a later write of the same span replaces the earlier one). */
  write(span: SpanRecord): void {
    this.queue.set(span.span_id, span);
    this.timer ??= setTimeout(() => this.flushLater(), this.delayMs).unref();
  }

  private flushLater(): void {
    try {
      this.flushStandalone?.();
    } catch {
      // A busy or closed database: the spans stay queued for the next flush (write, run end, read).
      this.timer = undefined;
    }
  }

  /** Set by the owner: flushes inside a transaction of its own. */
  flushStandalone: (() => void) | undefined;

  /** Writes queued spans; call inside the caller's transaction. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.size === 0) return;
    for (const span of this.queue.values()) this.store.upsert(span);
    this.queue.clear();
  }
}

/**
 * The span recorder behind the TraceRecorder port: one per run, current span in AsyncLocalStorage,
 * every start and end handed to a sink (the lead wires SpanStore.upsert and the event bus there).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AttributeValue, SpanKind, SpanRecord } from '../../shared/types/index.ts';
import { cleanAttribute, truncate, PREVIEW_CHARS } from './attributes.ts';
import { spanNow } from './clock.ts';
import { newSpanId, newTraceId } from './ids.ts';
import type { SpanHandle, TraceRecorder } from './types.ts';

/** Receives snapshots of spans as they start and end. */
export interface SpanSink {
  onStart(span: SpanRecord): void;
  onEnd(span: SpanRecord): void;
}

export interface TraceRecorderOptions {
  threadId: string;
  runId: string;
  /** One trace per run (user turn); generated when absent. */
  traceId?: string;
  sink: SpanSink;
  /** Epoch ms clock (µs precision); injectable for tests. */
  now?: () => number;
}

/** The recorder plus what it knows about itself (for tests and diagnostics). */
export interface RecorderWithStats extends TraceRecorder {
  readonly traceId: string;
  /** Sink calls that threw (the span was still recorded in memory). */
  readonly sinkErrors: number;
  readonly lastSinkError?: unknown;
}

/** A copy safe to hand out: later mutations of the live record do not leak into it. */
function snapshot(r: SpanRecord): SpanRecord {
  return { ...r, status: { ...r.status }, attributes: { ...r.attributes }, events: r.events.slice() };
}

/**
 * Creates a recorder. Contract: never throws into the caller — sink errors are counted and ignored;
 * a span's parent is `parent`, else the current AsyncLocalStorage span, else the run's first root
 * span while it is open (so spans started outside `withSpan` still join the run's one tree).
 */
export function createTraceRecorder(opts: TraceRecorderOptions): RecorderWithStats {
  const als = new AsyncLocalStorage<SpanHandle>();
  const now = opts.now ?? spanNow;
  const traceId = opts.traceId ?? newTraceId();
  let root: Handle | undefined;
  let sinkErrors = 0;
  let lastSinkError: unknown;

  function deliver(kind: 'onStart' | 'onEnd', record: SpanRecord): void {
    try {
      opts.sink[kind](snapshot(record));
    } catch (err) {
      // Tracing must never break the run: a failing store or bus costs us the span, not the agent.
      sinkErrors++;
      lastSinkError = err;
    }
  }

  class Handle implements SpanHandle {
    readonly record: SpanRecord;
    private failed = false;
    private ended = false;

    constructor(record: SpanRecord) {
      this.record = record;
    }

    set(key: string, value: AttributeValue | undefined): SpanHandle {
      if (this.ended) return this;
      const clean = cleanAttribute(value);
      if (clean !== undefined) this.record.attributes[key] = clean;
      return this;
    }

    setAll(attrs: Record<string, AttributeValue | undefined>): SpanHandle {
      for (const [k, v] of Object.entries(attrs)) this.set(k, v);
      return this;
    }

    addEvent(name: string, attributes?: Record<string, AttributeValue>): SpanHandle {
      if (this.ended) return this;
      const event: SpanRecord['events'][number] = { name, time_ms: now() };
      if (attributes) {
        const clean: Record<string, AttributeValue> = {};
        for (const [k, v] of Object.entries(attributes)) {
          const c = cleanAttribute(v);
          if (c !== undefined) clean[k] = c;
        }
        event.attributes = clean;
      }
      this.record.events.push(event);
      return this;
    }

    fail(errorType: string, message?: string): SpanHandle {
      if (this.ended) return this;
      this.failed = true;
      this.record.status = message ? { code: 'ERROR', message: truncate(message, PREVIEW_CHARS) } : { code: 'ERROR' };
      this.record.attributes['error.type'] = errorType;
      return this;
    }

    end(): void {
      if (this.ended) return;
      this.ended = true;
      this.record.end_ms = Math.max(now(), this.record.start_ms);
      if (!this.failed) this.record.status = { code: 'OK' };
      if (root === this) root = undefined;
      deliver('onEnd', this.record);
    }
  }

  return {
    traceId,
    get sinkErrors() {
      return sinkErrors;
    },
    get lastSinkError() {
      return lastSinkError;
    },
    startSpan(name, kind: SpanKind, attributes, parent) {
      const parentHandle = parent ?? als.getStore() ?? root;
      const record: SpanRecord = {
        trace_id: traceId,
        span_id: newSpanId(),
        name,
        kind,
        thread_id: opts.threadId,
        run_id: opts.runId,
        start_ms: now(),
        status: { code: 'UNSET' },
        attributes: {},
        events: [],
      };
      if (parentHandle) record.parent_span_id = parentHandle.record.span_id;
      const handle = new Handle(record);
      // Attributes given here are set before the start is delivered (sampling-relevant ones at creation).
      if (attributes) handle.setAll(attributes);
      if (!parentHandle && !root) root = handle;
      deliver('onStart', record);
      return handle;
    },
    withSpan(span, fn) {
      return als.run(span, fn);
    },
    currentSpan() {
      return als.getStore() ?? root;
    },
    recordEvent(name, attributes) {
      (als.getStore() ?? root)?.addEvent(name, attributes);
    },
  };
}

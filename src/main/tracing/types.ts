/**
 * Trace recorder port, on the OTel GenAI model (docs/tracing.md). The current span is carried by
 * AsyncLocalStorage, so parallel tool calls each nest their hook spans under their own tool span.
 */
import type { AttributeValue, SpanKind, SpanRecord } from '../../shared/types/index.ts';

export interface SpanHandle {
  readonly record: SpanRecord;
  set(key: string, value: AttributeValue | undefined): SpanHandle;
  setAll(attrs: Record<string, AttributeValue | undefined>): SpanHandle;
  addEvent(name: string, attributes?: Record<string, AttributeValue>): SpanHandle;
  /** Marks the span failed with an OTel `error.type`. */
  fail(errorType: string, message?: string): SpanHandle;
  /** Ends the span (idempotent). Status becomes OK unless it failed. */
  end(): void;
}

export interface TraceRecorder {
  /** Starts a span whose parent is the current span (or `parent` when given). */
  startSpan(name: string, kind: SpanKind, attributes?: Record<string, AttributeValue>, parent?: SpanHandle): SpanHandle;
  /** Runs `fn` with `span` as the current span. */
  withSpan<T>(span: SpanHandle, fn: () => Promise<T>): Promise<T>;
  currentSpan(): SpanHandle | undefined;
  recordEvent(name: string, attributes?: Record<string, AttributeValue>): void;
}

/** The standard sink: persist every span start/end and announce it as on_span_start / on_span_end. */
import type { SpanRecord, StreamEvent } from '../../shared/types/index.ts';
import type { SpanSink } from './recorder.ts';

export interface SpanSinkTargets {
  /** SpanStore.upsert (or anything with that shape). */
  store?: { upsert(span: SpanRecord): void };
  emit?: (event: StreamEvent) => void;
  /** Optional live exporter (ended spans only). */
  exporter?: { enqueue(span: SpanRecord): void };
}

/** Builds a sink over the store, the event bus and an exporter. Contract: one target failing does not skip the others. */
export function createSpanSink(targets: SpanSinkTargets): SpanSink {
  const send = (event: 'on_span_start' | 'on_span_end', span: SpanRecord) => {
    let firstError: unknown;
    const attempt = (fn: () => void) => {
      try {
        fn();
      } catch (err) {
        firstError ??= err;
      }
    };
    if (targets.store) attempt(() => targets.store?.upsert(span));
    if (targets.emit) attempt(() => targets.emit?.({ event, run_id: span.run_id, thread_id: span.thread_id, name: span.name, data: { span } }));
    if (event === 'on_span_end' && targets.exporter) attempt(() => targets.exporter?.enqueue(span));
    // Rethrown so the recorder counts it; the recorder never lets it reach the agent.
    if (firstError !== undefined) throw firstError;
  };
  return { onStart: (span) => send('on_span_start', span), onEnd: (span) => send('on_span_end', span) };
}

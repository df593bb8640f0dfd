/** Span builders for the trace timeline unit tests. */
import type { SpanRecord } from '../../../src/shared/types/index.ts';

/** One span; `end` null = still open. */
export function mk(
  id: string,
  parent: string | null,
  kind: SpanRecord['kind'],
  start: number,
  end: number | null,
  extra: Partial<SpanRecord> = {},
): SpanRecord {
  const s: SpanRecord = {
    trace_id: 'a'.repeat(32),
    span_id: id,
    name: `${kind} ${id}`,
    kind,
    thread_id: 'th',
    run_id: 'r1',
    start_ms: start,
    status: { code: 'OK' },
    attributes: {},
    events: [],
    ...extra,
  };
  if (parent) s.parent_span_id = parent;
  if (end !== null) s.end_ms = end;
  return s;
}

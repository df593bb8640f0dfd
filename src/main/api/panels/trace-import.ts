/** Id renewal for imported spans (same rule as `workbench trace import`). */
import type { SpanRecord } from '../../../shared/types/index.ts';
import { newSpanId } from '../../tracing/ids.ts';

/**
 * Copies spans into `threadId` with fresh span and run ids, parent links rewritten, trace ids kept.
 * Contract: a file can be imported next to the thread it came from without replacing its rows.
 */
export function renewIds(spans: readonly SpanRecord[], threadId: string): SpanRecord[] {
  const spanIds = new Map(spans.map((s) => [s.span_id, newSpanId()]));
  const runIds = new Map<string, string>();
  for (const s of spans)
    if (!runIds.has(s.run_id)) runIds.set(s.run_id, `imp_${newSpanId().slice(0, 12)}`);
  return spans.map((s) => {
    const copy: SpanRecord = {
      ...s,
      span_id: spanIds.get(s.span_id)!,
      run_id: runIds.get(s.run_id)!,
      thread_id: threadId,
    };
    delete copy.parent_span_id;
    const parent = s.parent_span_id
      ? (spanIds.get(s.parent_span_id) ?? s.parent_span_id)
      : undefined;
    if (parent) copy.parent_span_id = parent;
    return copy;
  });
}

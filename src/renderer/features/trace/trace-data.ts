/**
 * The trace slice's server data and its pure reducers: a thread's spans from `trace.list`, updated
 * live by `on_span_start` / `on_span_end` events (a later version of a span replaces the earlier).
 */
import type { AgentEventEnvelope } from '../../../shared/ipc/contract.ts';
import type { SpanRecord } from '../../../shared/types/index.ts';

export interface ThreadTrace {
  spans: SpanRecord[];
  /** True once `trace.list` answered for this thread. */
  loaded: boolean;
}

export interface TraceData {
  threads: Record<string, ThreadTrace>;
}

/** Empty trace data. */
export const EMPTY_TRACE: TraceData = { threads: {} };

/** Upserts spans into a copy of `list` (searching from the end: live spans are the latest). */
function upsertAll(list: readonly SpanRecord[], spans: readonly SpanRecord[]): SpanRecord[] {
  const out = list.slice();
  for (const span of spans) {
    let i = out.length - 1;
    while (i >= 0 && out[i]!.span_id !== span.span_id) i--;
    if (i >= 0) out[i] = span;
    else out.push(span);
  }
  return out;
}

/** Applies the span events of a batch of envelopes. Contract: pure; other events leave `data` as is. */
export function applySpanEvents(data: TraceData, envs: readonly AgentEventEnvelope[]): TraceData {
  const byThread = new Map<string, SpanRecord[]>();
  for (const env of envs) {
    const e = env.event;
    if (e.event !== 'on_span_start' && e.event !== 'on_span_end') continue;
    const span = e.data.span;
    // A subagent's spans also show in its parent thread's trace, nested under the task span.
    for (const threadId of [span.thread_id || e.thread_id, e.parent_thread_id]) {
      if (!threadId) continue;
      const list = byThread.get(threadId);
      if (list) list.push(span);
      else byThread.set(threadId, [span]);
    }
  }
  if (byThread.size === 0) return data;
  const threads = { ...data.threads };
  for (const [threadId, spans] of byThread) {
    const before = threads[threadId] ?? { spans: [], loaded: false };
    threads[threadId] = { ...before, spans: upsertAll(before.spans, spans) };
  }
  return { threads };
}

/**
 * Stores `trace.list`'s answer. Live spans the list does not know yet (or knows only as still open)
 * are kept, so a load that races a running run never loses a span.
 */
export function setThreadSpans(data: TraceData, threadId: string, spans: SpanRecord[]): TraceData {
  const live = data.threads[threadId]?.spans ?? [];
  const known = new Map(spans.map((s) => [s.span_id, s]));
  const newer = live.filter((s) => {
    const k = known.get(s.span_id);
    return !k || (k.end_ms === undefined && s.end_ms !== undefined);
  });
  const merged = newer.length ? upsertAll(spans, newer) : spans;
  return { threads: { ...data.threads, [threadId]: { spans: merged, loaded: true } } };
}

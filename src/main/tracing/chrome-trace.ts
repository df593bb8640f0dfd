/**
 * SpanRecord[] → Chrome trace-event JSON for ui.perfetto.dev and chrome://tracing: `X` slices in µs,
 * one process per thread, lanes so overlapping spans never share a tid, flow arrows from each chat
 * span to the execute_tool spans of the tool calls it asked for.
 */
import type { AttributeValue, SpanRecord } from '../../shared/types/index.ts';
import { redactAttributes } from './attributes.ts';
import { latestTime } from './otlp-encode.ts';
import { assignLanes } from './lanes.ts';

export interface ChromeTraceEvent {
  name: string;
  ph: 'X' | 'M' | 's' | 'f' | 'i';
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  cat?: string;
  id?: number;
  bp?: 'e';
  s?: 't';
  args?: Record<string, unknown>;
}

export interface ChromeTrace {
  traceEvents: ChromeTraceEvent[];
  displayTimeUnit: 'ms';
}

export interface ChromeExportOptions {
  /** Keep content attributes in `args`; off (default) drops them as the OTLP export does. */
  captureContent?: boolean;
}

const micros = (ms: number): number => Math.round(ms * 1000);

/** Encodes spans for Perfetto. Contract: no two overlapping, non-nested `X` events share (pid, tid). */
export function toChromeTrace(spans: readonly SpanRecord[], opts: ChromeExportOptions = {}): ChromeTrace {
  const capture = opts.captureContent ?? false;
  const fallbackEnd = latestTime(spans);
  const events: ChromeTraceEvent[] = [];
  const byThread = new Map<string, SpanRecord[]>();
  for (const s of spans) {
    const list = byThread.get(s.thread_id);
    if (list) list.push(s);
    else byThread.set(s.thread_id, [s]);
  }

  const place = new Map<string, { pid: number; tid: number; start: number; end: number }>();
  let pid = 0;
  for (const [threadId, list] of byThread) {
    pid++;
    events.push({ name: 'process_name', ph: 'M', pid, tid: 0, args: { name: `thread ${threadId}` } });
    const intervals = list.map((s) => {
      const start = micros(s.start_ms);
      return { id: s.span_id, parentId: s.parent_span_id, start, end: Math.max(start, micros(s.end_ms ?? fallbackEnd)) };
    });
    const lanes = assignLanes(intervals);
    let laneCount = 0;
    intervals.forEach((iv, i) => {
      const tid = (lanes.get(iv.id) ?? 0) + 1;
      laneCount = Math.max(laneCount, tid);
      place.set(iv.id, { pid, tid, start: iv.start, end: iv.end });
      const s = list[i];
      const args: Record<string, unknown> = {
        span_id: s.span_id,
        trace_id: s.trace_id,
        run_id: s.run_id,
        kind: s.kind,
        status: s.status.code,
        ...redactAttributes<AttributeValue>(s.attributes, capture),
      };
      if (s.parent_span_id) args.parent_span_id = s.parent_span_id;
      if (s.status.message) args.status_message = s.status.message;
      if (s.end_ms === undefined || s.incomplete) args.incomplete = true;
      events.push({ name: s.name, cat: s.kind, ph: 'X', pid, tid, ts: iv.start, dur: iv.end - iv.start, args });
      for (const e of s.events) {
        const eargs = redactAttributes<AttributeValue>(e.attributes ?? {}, capture);
        events.push({ name: e.name, cat: 'event', ph: 'i', s: 't', pid, tid, ts: micros(e.time_ms), args: eargs });
      }
    });
    for (let tid = 1; tid <= laneCount; tid++) {
      events.push({ name: 'thread_name', ph: 'M', pid, tid, args: { name: tid === 1 ? 'main' : `lane ${tid}` } });
      events.push({ name: 'thread_sort_index', ph: 'M', pid, tid, args: { sort_index: tid } });
    }
  }

  let flowId = 0;
  const toolsByCall = new Map<string, SpanRecord[]>();
  for (const s of spans) {
    const callId = s.attributes['gen_ai.tool.call.id'];
    if (typeof callId !== 'string') continue;
    const key = `${s.trace_id}/${callId}`;
    if (toolsByCall.has(key)) toolsByCall.get(key)?.push(s);
    else toolsByCall.set(key, [s]);
  }
  for (const chat of spans) {
    const ids = chat.attributes['workbench.tool_call_ids'];
    if (!Array.isArray(ids)) continue;
    const from = place.get(chat.span_id);
    if (!from) continue;
    for (const callId of ids) {
      for (const tool of toolsByCall.get(`${chat.trace_id}/${callId}`) ?? []) {
        const to = place.get(tool.span_id);
        if (!to) continue;
        flowId++;
        // `s` binds to the slice enclosing its ts: one µs before the chat ends is still inside it.
        const sTs = Math.max(from.start, from.end - 1);
        events.push({ name: 'tool_call', cat: 'flow', ph: 's', id: flowId, pid: from.pid, tid: from.tid, ts: sTs });
        events.push({ name: 'tool_call', cat: 'flow', ph: 'f', bp: 'e', id: flowId, pid: to.pid, tid: to.tid, ts: to.start });
      }
    }
  }
  return { traceEvents: events, displayTimeUnit: 'ms' };
}

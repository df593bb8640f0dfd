import { describe, expect, it } from 'vitest';
import { applyTraceEvents } from '../../../src/renderer/stores/apply-event.ts';
import { EMPTY_TRACE, setThreadSpans } from '../../../src/renderer/features/trace/trace-data.ts';
import type { AgentEventEnvelope } from '../../../src/shared/ipc/contract.ts';
import type { SpanRecord } from '../../../src/shared/types/index.ts';
import { mk } from './trace-fixtures.ts';

let seq = 0;
const ev = (event: 'on_span_start' | 'on_span_end', span: SpanRecord): AgentEventEnvelope => ({
  seq: ++seq,
  event: { event, thread_id: span.thread_id, run_id: span.run_id, data: { span } },
});

describe('span events into the trace slice', () => {
  it('adds started spans and replaces them when they end', () => {
    const open = mk('c', 'root', 'llm', 1, null);
    const d = applyTraceEvents(EMPTY_TRACE, [
      ev('on_span_start', mk('root', null, 'agent', 0, null)),
      ev('on_span_start', open),
      ev('on_span_end', { ...open, end_ms: 9 }),
    ]);
    expect(d.threads.th!.spans.map((s) => [s.span_id, s.end_ms])).toEqual([
      ['root', undefined],
      ['c', 9],
    ]);
    expect(d.threads.th!.loaded).toBe(false);
  });

  it('is pure and ignores other events', () => {
    const before = applyTraceEvents(EMPTY_TRACE, [
      ev('on_span_start', mk('root', null, 'agent', 0, null)),
    ]);
    const frozen = JSON.stringify(before);
    const other: AgentEventEnvelope = {
      seq: ++seq,
      event: { event: 'on_chat_model_stream', run_id: 'r', thread_id: 'th', data: { delta: 'x' } },
    };
    expect(applyTraceEvents(before, [other])).toBe(before);
    applyTraceEvents(before, [ev('on_span_end', mk('root', null, 'agent', 0, 5))]);
    expect(JSON.stringify(before)).toBe(frozen);
  });

  it('a list answer keeps live spans it does not know yet, or knows only as open', () => {
    const live = applyTraceEvents(EMPTY_TRACE, [
      ev('on_span_end', mk('c', 'root', 'llm', 1, 9)),
      ev('on_span_start', mk('t', 'root', 'tool', 10, null)),
    ]);
    const d = setThreadSpans(live, 'th', [
      mk('root', null, 'agent', 0, null),
      mk('c', 'root', 'llm', 1, null),
    ]);
    expect(d.threads.th!.loaded).toBe(true);
    expect(d.threads.th!.spans.map((s) => [s.span_id, s.end_ms])).toEqual([
      ['root', undefined],
      ['c', 9],
      ['t', undefined],
    ]);
  });
});

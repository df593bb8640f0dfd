import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toChromeTrace, type ChromeTraceEvent } from '../../../src/main/tracing/chrome-trace.ts';
import { assignLanes } from '../../../src/main/tracing/lanes.ts';
import type { SpanRecord } from '../../../src/shared/types/index.ts';

const spans = JSON.parse(readFileSync(new URL('../../fixtures/traces/scripted-turn.spans.json', import.meta.url), 'utf8')) as SpanRecord[];

/** The Perfetto rule: on one (pid, tid), any two slices are disjoint or nested. */
function assertNesting(events: ChromeTraceEvent[]): void {
  const slices = events.filter((e) => e.ph === 'X');
  for (const a of slices)
    for (const b of slices) {
      if (a === b || a.pid !== b.pid || a.tid !== b.tid) continue;
      const [as, ae, bs, be] = [a.ts!, a.ts! + a.dur!, b.ts!, b.ts! + b.dur!];
      const disjoint = ae <= bs || be <= as;
      const nested = (as <= bs && be <= ae) || (bs <= as && ae <= be);
      expect(disjoint || nested, `${a.name} and ${b.name} overlap on tid ${a.tid}`).toBe(true);
    }
}

describe('Chrome trace export', () => {
  const trace = toChromeTrace(spans);
  const x = (name: string) => trace.traceEvents.filter((e) => e.ph === 'X' && e.name === name);

  it('writes X events in µs with attributes in args, and M metadata', () => {
    expect(trace.displayTimeUnit).toBe('ms');
    const root = x('invoke_agent workbench')[0];
    expect(root).toMatchObject({ pid: 1, tid: 1, ts: Math.round(spans[0].start_ms * 1000), dur: 2_500_500 });
    expect(root.args).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', span_id: '00f067aa0ba902b7', status: 'OK' });
    const meta = trace.traceEvents.filter((e) => e.ph === 'M');
    expect(meta).toContainEqual({ name: 'process_name', ph: 'M', pid: 1, tid: 0, args: { name: 'thread th_golden' } });
    const tids = new Set(trace.traceEvents.filter((e) => e.ph === 'X').map((e) => e.tid));
    for (const tid of tids) expect(meta.some((m) => m.name === 'thread_name' && m.tid === tid)).toBe(true);
    expect(trace.traceEvents.filter((e) => e.ph === 'i').map((e) => e.name)).toEqual(['first_chunk', 'retry']);
  });

  it('puts overlapping parallel tool spans on separate tids; children nest on their parent lane', () => {
    const [read] = x('execute_tool read_file');
    const [shell] = x('execute_tool shell');
    expect(read.tid).not.toBe(shell.tid);
    expect(read.tid).toBe(1); // the first tool nests under the root on the main lane
    const [guard] = x('hook before_tool_call guard');
    expect(guard.tid).toBe(shell.tid);
    assertNesting(trace.traceEvents);
  });

  it('links each chat span to the tools it requested with s/f flow pairs', () => {
    const flows = trace.traceEvents.filter((e) => e.ph === 's' || e.ph === 'f');
    expect(flows).toHaveLength(4);
    const [chat] = x('chat gpt-4o');
    const ids = [...new Set(flows.map((f) => f.id))];
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      const s = flows.find((f) => f.id === id && f.ph === 's')!;
      const f = flows.find((e) => e.id === id && e.ph === 'f')!;
      expect(s.tid).toBe(chat.tid);
      expect(s.ts! >= chat.ts! && s.ts! < chat.ts! + chat.dur!).toBe(true);
      const target = trace.traceEvents.find((e) => e.ph === 'X' && e.tid === f.tid && e.ts === f.ts)!;
      expect(target.name).toMatch(/^execute_tool /);
      expect(f.bp).toBe('e');
    }
  });

  it('drops content from args unless asked', () => {
    expect(x('execute_tool read_file')[0].args).not.toHaveProperty('tool_args');
    const withContent = toChromeTrace(spans, { captureContent: true });
    expect(withContent.traceEvents.find((e) => e.name === 'execute_tool read_file')!.args).toHaveProperty('tool_args', '{"path":"main.py"}');
  });

  it('lays out many overlapping spans without breaking the nesting rule', () => {
    // Deterministic pseudo-random intervals, with a parent per interval when one contains it.
    let seed = 42;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const ivs = Array.from({ length: 300 }, (_, i) => {
      const start = Math.floor(rnd() * 10_000);
      return { id: String(i), start, end: start + Math.floor(rnd() * 2000) };
    });
    const lanes = assignLanes(ivs);
    const events = ivs.map((iv) => ({ name: iv.id, ph: 'X' as const, pid: 1, tid: lanes.get(iv.id)!, ts: iv.start, dur: iv.end - iv.start }));
    assertNesting(events);
  });

  it('gives each thread its own pid', () => {
    const two = toChromeTrace([...spans, ...spans.map((s) => ({ ...s, span_id: s.span_id.replace(/^./, 'f'), parent_span_id: s.parent_span_id?.replace(/^./, 'f'), thread_id: 'th_other' }))]);
    const pids = new Set(two.traceEvents.filter((e) => e.ph === 'X').map((e) => e.pid));
    expect([...pids]).toEqual([1, 2]);
  });
});

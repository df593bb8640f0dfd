import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/main/store/database.ts';
import { createTraceService } from '../../../src/main/api/panels/trace-service.ts';
import { validateSpanTree } from '../../../src/main/tracing/validate.ts';
import type { SpanRecord } from '../../../src/shared/types/index.ts';

const TRACE = 'a'.repeat(32);

function span(
  id: string,
  parent: string | undefined,
  kind: SpanRecord['kind'],
  start: number,
  end: number,
  attrs: SpanRecord['attributes'] = {},
): SpanRecord {
  const s: SpanRecord = {
    trace_id: TRACE,
    span_id: id.padStart(16, '0'),
    name: `${kind} ${id}`,
    kind,
    thread_id: 'th_1',
    run_id: 'run_1',
    start_ms: start,
    end_ms: end,
    status: { code: 'OK' },
    attributes: attrs,
    events: [],
  };
  if (parent) s.parent_span_id = parent.padStart(16, '0');
  return s;
}

function setup(capture = false) {
  const db = openDatabase(':memory:');
  const th = db.threads.loadOrCreate(undefined, '/tmp').thread_id;
  for (const s of [
    span('1', undefined, 'agent', 1000, 2000),
    span('2', '1', 'llm', 1010, 1500, { 'workbench.output.preview': 'secret answer' }),
    span('3', '1', 'tool', 1510, 1900, { tool_args: '{"path":"a"}' }),
    span('4', '3', 'hook', 1520, 1530),
  ])
    db.spans.upsert({ ...s, thread_id: th });
  const service = createTraceService({
    spans: db.spans,
    threads: db.threads,
    hookRuns: db.hookRuns,
    captureContent: () => capture,
    workspace: '/tmp',
  });
  return { db, service, th };
}

describe('trace service', () => {
  it('lists a thread’s spans and flushes buffered writes first', () => {
    const { db, service, th } = setup();
    let flushed = 0;
    const s2 = createTraceService({
      spans: db.spans,
      threads: db.threads,
      hookRuns: db.hookRuns,
      flush: () => void flushed++,
      captureContent: () => false,
      workspace: '/tmp',
    });
    expect(service.list({ threadId: th }).map((s) => s.kind)).toEqual([
      'agent',
      'llm',
      'tool',
      'hook',
    ]);
    s2.list({ threadId: th });
    expect(flushed).toBe(1);
  });

  it('exports OTLP without content unless capture is on, and Chrome trace', () => {
    const exp = (capture: boolean, format: 'otlp' | 'chrome') => {
      const { service, th } = setup(capture);
      return service.export({ threadId: th, format });
    };
    const off = exp(false, 'otlp');
    expect(off.filename).toMatch(/\.otlp\.json$/);
    expect(off.content).not.toContain('secret answer');
    expect(exp(true, 'otlp').content).toContain('secret answer');
    expect(Array.isArray(JSON.parse(exp(false, 'chrome').content).traceEvents)).toBe(true);
  });

  it('imports an export into a new thread with renewed ids and one tree per run', () => {
    const { service, th } = setup(true);
    const file = service.export({ threadId: th, format: 'otlp' }).content;
    const res = service.import({ content: file, name: 'x.json' });
    expect(res.spans).toBe(4);
    expect(res.threadId).not.toBe(th);
    const spans = service.list({ threadId: res.threadId });
    expect(spans.every((s) => s.span_id !== '0000000000000001')).toBe(true);
    expect(validateSpanTree(spans).ok).toBe(true);
  });

  it('rejects Chrome traces and non-JSON with a message', () => {
    const { service } = setup();
    expect(() => service.import({ content: '{"traceEvents":[]}' })).toThrow(/Chrome/);
    expect(() => service.import({ content: 'nope' })).toThrow(/not JSON/);
  });

  it('finds the stored hook run of a hook span', () => {
    const { db, service, th } = setup();
    db.hookRuns.insert({
      hook_id: 'h',
      hook_name: 'guard',
      event: 'before_tool_call',
      thread_id: th,
      run_id: 'run_1',
      span_id: '0000000000000004',
      started_at: 1520,
      duration_ms: 10,
      payload: '{"x":1}',
      stdout: 'out',
      stderr: 'err',
      exit_code: 0,
      signal: null,
      timed_out: false,
      decision: 'allow',
    });
    expect(service.hookRun({ threadId: th, spanId: '0000000000000004' })?.stdout).toBe('out');
    expect(service.hookRun({ threadId: th, spanId: '0000000000000002' })).toBeNull();
  });
});

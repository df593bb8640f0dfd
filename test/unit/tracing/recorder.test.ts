import { describe, expect, it } from 'vitest';
import { createTraceRecorder } from '../../../src/main/tracing/recorder.ts';
import { endRunSpan, startRunSpan } from '../../../src/main/tracing/run-span.ts';
import { validateSpanTree } from '../../../src/main/tracing/validate.ts';
import { recorderWithSink, steppingClock, turns } from './helpers.ts';

describe('trace recorder', () => {
  it('creates hex ids, µs-precise epoch times and delivers start/end snapshots', () => {
    const { recorder, sink } = recorderWithSink();
    const before = Date.now();
    const span = recorder.startSpan('work', 'internal', { a: 1 });
    span.set('b', 'two').end();
    expect(recorder.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.record.span_id).toMatch(/^[0-9a-f]{16}$/);
    expect(span.record.start_ms).toBeGreaterThanOrEqual(before - 50);
    expect(Math.round(span.record.start_ms * 1000) / 1000).toBe(span.record.start_ms);
    expect(sink.starts[0]).toMatchObject({ name: 'work', status: { code: 'UNSET' }, attributes: { a: 1 } });
    expect(sink.starts[0].end_ms).toBeUndefined();
    expect(sink.starts[0].attributes.b).toBeUndefined(); // snapshot, not the live record
    expect(sink.ends[0]).toMatchObject({ status: { code: 'OK' }, attributes: { a: 1, b: 'two' } });
    expect(sink.ends[0].end_ms).toBeGreaterThanOrEqual(sink.ends[0].start_ms);
  });

  it('end is idempotent; fail sets ERROR and error.type; writes after end are ignored', () => {
    const { recorder, sink } = recorderWithSink();
    const span = recorder.startSpan('x', 'tool');
    span.fail('tool_error', 'boom').end();
    span.end();
    span.set('late', 1);
    expect(sink.ends).toHaveLength(1);
    expect(sink.ends[0].status).toEqual({ code: 'ERROR', message: 'boom' });
    expect(sink.ends[0].attributes['error.type']).toBe('tool_error');
    expect(span.record.attributes.late).toBeUndefined();
  });

  it('truncates long strings and drops undefined / non-finite values', () => {
    const { recorder } = recorderWithSink();
    const span = recorder.startSpan('x', 'internal');
    span.setAll({ big: 'y'.repeat(10_000), none: undefined, nan: Number.NaN, list: ['a', 'b'] });
    expect((span.record.attributes.big as string).length).toBe(4096);
    expect((span.record.attributes.big as string).endsWith('…')).toBe(true);
    expect(span.record.attributes).not.toHaveProperty('none');
    expect(span.record.attributes).not.toHaveProperty('nan');
    expect(span.record.attributes.list).toEqual(['a', 'b']);
  });

  it('never throws when the sink throws; counts the errors instead', () => {
    const recorder = createTraceRecorder({
      threadId: 't',
      runId: 'r',
      sink: {
        onStart: () => {
          throw new Error('db locked');
        },
        onEnd: () => {
          throw new Error('db locked');
        },
      },
    });
    expect(() => recorder.startSpan('x', 'internal').end()).not.toThrow();
    expect(recorder.sinkErrors).toBe(2);
    expect((recorder.lastSinkError as Error).message).toBe('db locked');
  });

  it('nests children under the current span across concurrent async work', async () => {
    const { recorder, sink } = recorderWithSink({ now: steppingClock() });
    const root = startRunSpan(recorder, { model: 'm', threadId: 'th_test', workspace: '/ws' });
    const tool = async (name: string) => {
      const span = recorder.startSpan(`execute_tool ${name}`, 'tool');
      await recorder.withSpan(span, async () => {
        await turns(1);
        const pre = recorder.startSpan(`hook before ${name}`, 'hook');
        await turns(2); // the other tool runs meanwhile
        pre.end();
        const post = recorder.startSpan(`hook after ${name}`, 'hook');
        await turns(1);
        post.end();
        recorder.recordEvent('done');
      });
      span.end();
      return span;
    };
    const [a, b] = await recorder.withSpan(root, () => Promise.all([tool('a'), tool('b')]));
    endRunSpan(root, { stop_reason: 'completed', iterations: 1, input_tokens: 3, output_tokens: 4 });

    const spans = sink.spans();
    const childrenOf = (id: string) => spans.filter((s) => s.parent_span_id === id).map((s) => s.name).sort();
    expect(childrenOf(a.record.span_id)).toEqual(['hook after a', 'hook before a']);
    expect(childrenOf(b.record.span_id)).toEqual(['hook after b', 'hook before b']);
    expect(childrenOf(root.record.span_id)).toEqual(['execute_tool a', 'execute_tool b']);
    expect(a.record.events.map((e) => e.name)).toEqual(['done']);
    expect(validateSpanTree(spans)).toMatchObject({ ok: true, errors: [] });
    const rootRec = spans.find((s) => s.kind === 'agent')!;
    expect(rootRec).toMatchObject({
      name: 'invoke_agent workbench',
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'workbench',
        'gen_ai.conversation.id': 'th_test',
        'gen_ai.usage.input_tokens': 3,
        'workbench.stop_reason': 'completed',
      },
      status: { code: 'OK' },
    });
    // Overlap really happened: b started before a ended.
    expect(b.record.start_ms).toBeLessThan(a.record.end_ms!);
  });

  it('parents stray spans (outside withSpan) to the open root; an explicit parent wins', () => {
    const { recorder } = recorderWithSink();
    const root = recorder.startSpan('root', 'agent');
    const stray = recorder.startSpan('stray', 'internal');
    const explicit = recorder.startSpan('explicit', 'internal', {}, stray);
    expect(stray.record.parent_span_id).toBe(root.record.span_id);
    expect(explicit.record.parent_span_id).toBe(stray.record.span_id);
    expect(recorder.currentSpan()).toBe(root);
  });

  it('endRunSpan marks errors', () => {
    const { recorder, sink } = recorderWithSink();
    const root = startRunSpan(recorder, { model: 'm', threadId: 't', workspace: '/ws' });
    endRunSpan(root, { stop_reason: 'error', iterations: 2, input_tokens: 0, output_tokens: 0, error: 'model unreachable' });
    expect(sink.ends[0].status).toEqual({ code: 'ERROR', message: 'model unreachable' });
    expect(sink.ends[0].attributes['error.type']).toBe('run_error');
  });
});

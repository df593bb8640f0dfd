import { describe, expect, it } from 'vitest';
import { toChromeTrace } from '../../../src/main/tracing/chrome-trace.ts';
import { runInSpan } from '../../../src/main/tracing/in-span.ts';
import { fromOtlpJson } from '../../../src/main/tracing/otlp-decode.ts';
import { toOtlpJson } from '../../../src/main/tracing/otlp-encode.ts';
import { validateSpanTree } from '../../../src/main/tracing/validate.ts';
import { recorderWithSink, steppingClock } from './helpers.ts';

describe('runInSpan', () => {
  it('runs fn without a recorder', async () => {
    expect(await runInSpan(undefined, 'x', 'hook', {}, async (span) => span ?? 'none')).toBe('none');
  });

  it('nests under the current span, fails on throw and rethrows', async () => {
    const { recorder, sink } = recorderWithSink();
    const root = recorder.startSpan('root', 'agent');
    await recorder.withSpan(root, async () => {
      await runInSpan(recorder, 'hook Stop audit', 'hook', { 'workbench.hook.name': 'audit' }, async (span) => {
        span?.set('workbench.hook.exit_code', 0);
        await runInSpan(recorder, 'inner', 'internal', {}, async () => undefined);
      });
      await expect(runInSpan(recorder, 'bad', 'hook', {}, async () => Promise.reject(new RangeError('nope')))).rejects.toThrow('nope');
    });
    root.end();
    const byName = new Map(sink.ends.map((s) => [s.name, s]));
    expect(byName.get('hook Stop audit')!.parent_span_id).toBe(root.record.span_id);
    expect(byName.get('inner')!.parent_span_id).toBe(byName.get('hook Stop audit')!.span_id);
    expect(byName.get('bad')!.attributes['error.type']).toBe('RangeError');
    expect(validateSpanTree(sink.spans()).ok).toBe(true);
  });

  it('handles a 10 000-span run through validation and both exports', async () => {
    const { recorder, sink } = recorderWithSink({ now: steppingClock(1_700_000_000_000, 0.25) });
    const root = recorder.startSpan('invoke_agent workbench', 'agent');
    await recorder.withSpan(root, async () => {
      const tools = Array.from({ length: 2000 }, (_, i) => recorder.startSpan(`execute_tool t${i}`, 'tool', { 'gen_ai.tool.call.id': `c${i}` }));
      for (const t of tools) {
        await recorder.withSpan(t, async () => {
          for (let k = 0; k < 4; k++) recorder.startSpan('hook x', 'hook').end();
        });
      }
      for (const t of tools) t.end();
    });
    root.end();
    const spans = sink.spans();
    expect(spans).toHaveLength(10_001);
    expect(validateSpanTree(spans).errors).toEqual([]);
    expect(fromOtlpJson(JSON.stringify(toOtlpJson(spans, { captureContent: true })))).toEqual(spans);
    const chrome = toChromeTrace(spans);
    expect(chrome.traceEvents.filter((e) => e.ph === 'X')).toHaveLength(10_001);
  });
});

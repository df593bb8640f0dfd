import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromOtlpJson } from '../../../src/main/tracing/otlp-decode.ts';
import { toOtlpJson } from '../../../src/main/tracing/otlp-encode.ts';
import type { OtlpSpan } from '../../../src/main/tracing/otlp-types.ts';
import { validateSpanTree } from '../../../src/main/tracing/validate.ts';
import type { SpanRecord } from '../../../src/shared/types/index.ts';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/traces/${name}`, import.meta.url), 'utf8');
const spans = JSON.parse(fixture('scripted-turn.spans.json')) as SpanRecord[];
const otlpSpans = (doc: ReturnType<typeof toOtlpJson>): OtlpSpan[] => doc.resourceSpans[0].scopeSpans[0].spans;
const attr = (s: OtlpSpan, key: string) => s.attributes.find((a) => a.key === key)?.value;

describe('OTLP JSON export', () => {
  it('matches the golden file for a scripted turn (content capture off)', () => {
    expect(JSON.parse(JSON.stringify(toOtlpJson(spans, { captureContent: false })))).toEqual(JSON.parse(fixture('scripted-turn.otlp.json')));
  });

  it('has the OTLP encoding: hex ids, decimal nano strings consistent with ms, integer enums', () => {
    const doc = toOtlpJson(spans, { captureContent: true });
    expect(doc.resourceSpans[0].resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'agent-workbench' } });
    expect(doc.resourceSpans[0].scopeSpans[0].scope.name).toBe('agent-workbench');
    const out = otlpSpans(doc);
    expect(out).toHaveLength(spans.length);
    out.forEach((s, i) => {
      expect(s.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
      if (s.parentSpanId !== undefined) expect(s.parentSpanId).toMatch(/^[0-9a-f]{16}$/);
      expect(s.startTimeUnixNano).toMatch(/^\d+$/);
      expect(s.endTimeUnixNano).toMatch(/^\d+$/);
      expect(Number(BigInt(s.startTimeUnixNano) / 1000n)).toBe(Math.round(spans[i].start_ms * 1000));
      expect(BigInt(s.endTimeUnixNano) >= BigInt(s.startTimeUnixNano)).toBe(true);
      expect(Number.isInteger(s.kind)).toBe(true);
      expect([0, 1, 2]).toContain(s.status.code);
    });
    const byName = (n: string) => out.find((s) => s.name === n)!;
    expect(byName('chat gpt-4o').kind).toBe(3);
    expect(byName('invoke_agent workbench').kind).toBe(1);
    expect(byName('execute_tool shell').status).toEqual({ code: 2, message: 'exit 1' });
    expect(byName('execute_tool read_file').status).toEqual({ code: 1 });
    expect(out[0].startTimeUnixNano).toBe('1763790000000125000');
    // Attribute encodings.
    const chat = byName('chat gpt-4o');
    expect(attr(chat, 'gen_ai.usage.input_tokens')).toEqual({ intValue: '100' });
    expect(attr(chat, 'gen_ai.request.stream')).toEqual({ boolValue: true });
    expect(attr(chat, 'workbench.temperature')).toEqual({ doubleValue: 0.7 });
    expect(attr(chat, 'gen_ai.response.finish_reasons')).toEqual({ arrayValue: { values: [{ stringValue: 'tool_calls' }] } });
    expect(chat.events.map((e) => e.name)).toEqual(['first_chunk', 'retry']);
    expect(chat.events[1].attributes).toContainEqual({ key: 'attempt', value: { intValue: '1' } });
    for (const s of out) expect(s.attributes.map((a) => a.key)).not.toContain('gen_ai.system');
  });

  it('drops content attributes unless capture is on', () => {
    const contentKeys = ['workbench.output.preview', 'tool_args', 'output_preview', 'workbench.hook.payload', 'workbench.hook.stdout', 'workbench.hook.stderr'];
    const keys = (doc: ReturnType<typeof toOtlpJson>) => new Set(otlpSpans(doc).flatMap((s) => s.attributes.map((a) => a.key)));
    const off = keys(toOtlpJson(spans, { captureContent: false }));
    const on = keys(toOtlpJson(spans, { captureContent: true }));
    for (const k of contentKeys) {
      expect(off.has(k), k).toBe(false);
      expect(on.has(k), k).toBe(true);
    }
    for (const k of ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result']) expect(off.has(k)).toBe(false);
    // Non-content metadata survives redaction.
    for (const k of ['output_length', 'content_length', 'tool_call_names', 'workbench.hook.exit_code']) expect(off.has(k), k).toBe(true);
  });

  it('round-trips export → import to the same spans (ids, tree, attributes, µs timings)', () => {
    const back = fromOtlpJson(JSON.stringify(toOtlpJson(spans, { captureContent: true })));
    expect(back).toEqual(spans);
    expect(validateSpanTree(back).ok).toBe(true);
  });

  it('imports foreign OTLP: numeric intValue, string enums, no workbench keys', () => {
    const doc = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1',
                  spanId: 'bbbbbbbbbbbbbbb1',
                  name: 'chat llama',
                  kind: 3,
                  startTimeUnixNano: 1_700_000_000_000_000_000,
                  endTimeUnixNano: '1700000000500000000',
                  attributes: [{ key: 'gen_ai.usage.input_tokens', value: { intValue: 7 } }],
                  status: { code: 'STATUS_CODE_ERROR', message: 'x' },
                },
              ],
            },
          ],
        },
      ],
    };
    const [s] = fromOtlpJson(doc, { threadId: 'th_x' });
    expect(s).toMatchObject({ kind: 'llm', thread_id: 'th_x', run_id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1', start_ms: 1_700_000_000_000, end_ms: 1_700_000_000_500, status: { code: 'ERROR', message: 'x' } });
    expect(s.attributes['gen_ai.usage.input_tokens']).toBe(7);
  });

  it('fails with a clear message naming the problem', () => {
    expect(() => fromOtlpJson('not json')).toThrow(/not JSON/);
    expect(() => fromOtlpJson({ spans: [] })).toThrow(/"resourceSpans" array/);
    const bad = JSON.parse(fixture('scripted-turn.otlp.json'));
    bad.resourceSpans[0].scopeSpans[0].spans[2].spanId = 'S0VZ';
    expect(() => fromOtlpJson(bad)).toThrow(/spans\[2\] \("chat gpt-4o"\): spanId "S0VZ" is not 16 hex chars/);
    bad.resourceSpans[0].scopeSpans[0].spans[2].spanId = '2222222222222222';
    bad.resourceSpans[0].scopeSpans[0].spans[1].startTimeUnixNano = '12.5';
    expect(() => fromOtlpJson(bad)).toThrow(/startTimeUnixNano: "12.5" is not a decimal string/);
  });
});

import { describe, expect, it } from 'vitest';
import { runAgentLoop } from '../../../src/main/agent/loop.ts';
import { createTracingHook } from '../../../src/main/middleware/tracing.ts';
import { LlmError } from '../../../src/main/llm/types.ts';
import { endRunSpan, startRunSpan } from '../../../src/main/tracing/run-span.ts';
import { validateSpanTree } from '../../../src/main/tracing/validate.ts';
import type { Hook } from '../../../src/main/pipeline/hook.ts';
import { harness, scriptedLlm, testTool } from '../agent/loop-harness.ts';
import { fakeContext, recorderWithSink, turns } from './helpers.ts';
import { requestOf } from '../../helpers/model-request.ts';
import { createPipeline } from '../../../src/main/pipeline/run-phase.ts';

const hook = createTracingHook();
const msgs = { ...requestOf([{ role: 'user', content: 'hello' }]), model: 'gpt-test' };

describe('tracing hook', () => {
  it('is a builtin named tracing and a pass-through without a recorder', async () => {
    expect(hook).toMatchObject({ name: 'tracing', source: 'builtin' });
    const ctx = fakeContext();
    const res = await hook.wrapModelCall!(ctx, msgs, async () => ({ content: 'hi', tool_calls: [] }));
    expect(res.content).toBe('hi');
    const out = await hook.wrapToolCall!(ctx, { id: 'c1', name: 't', args: {} }, async (c) => ({ tool_call_id: c.id, name: c.name, output: 'ok', status: 'ok' }));
    expect(out.output).toBe('ok');
  });

  it('records a chat span with GenAI attributes set at creation and the response after', async () => {
    const { recorder, sink } = recorderWithSink();
    const ctx = fakeContext({ trace: recorder });
    let currentInside: string | undefined;
    await hook.wrapModelCall!(ctx, msgs, async () => {
      currentInside = recorder.currentSpan()?.record.name;
      recorder.currentSpan()?.addEvent('first_chunk');
      return {
        content: 'x'.repeat(800),
        tool_calls: [
          { id: 'call_1', name: 'read_file', args: { path: 'a' } },
          { id: 'call_2', name: 'shell', args: {} },
        ],
        usage: { input_tokens: 12, output_tokens: 34 },
        finish_reason: 'tool_calls',
      };
    });
    expect(currentInside).toBe('chat gpt-test');
    expect(sink.starts[0]).toMatchObject({
      name: 'chat gpt-test',
      kind: 'llm',
      attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-test', message_count: 1 },
    });
    const end = sink.ends[0];
    expect(end.status.code).toBe('OK');
    expect(end.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 34,
      'gen_ai.response.finish_reasons': ['tool_calls'],
      content_length: 800,
      tool_calls_count: 2,
      tool_call_names: ['read_file', 'shell'],
      'workbench.tool_call_ids': ['call_1', 'call_2'],
    });
    expect((end.attributes['workbench.output.preview'] as string).length).toBe(500);
    expect(end.attributes).not.toHaveProperty('gen_ai.system');
    expect(end.events.map((e) => e.name)).toEqual(['first_chunk']);
  });

  it('leaves usage absent (not 0) when the provider does not report it', async () => {
    const { recorder, sink } = recorderWithSink();
    await hook.wrapModelCall!(fakeContext({ trace: recorder }), msgs, async () => ({ content: 'a', tool_calls: [] }));
    expect(sink.ends[0].attributes).not.toHaveProperty('gen_ai.usage.input_tokens');
  });

  it('marks an interrupted stream and a thrown LlmError as errors, rethrowing the latter', async () => {
    const { recorder, sink } = recorderWithSink();
    const ctx = fakeContext({ trace: recorder });
    await hook.wrapModelCall!(ctx, msgs, async () => ({ content: 'part', tool_calls: [], interrupted: true, error: 'socket hang up' }));
    expect(sink.ends[0].status).toEqual({ code: 'ERROR', message: 'socket hang up' });
    expect(sink.ends[0].attributes['error.type']).toBe('stream_interrupted');
    await expect(
      hook.wrapModelCall!(ctx, msgs, async () => {
        throw new LlmError('rate_limited', 'slow down', 429);
      }),
    ).rejects.toThrow('slow down');
    expect(sink.ends[1].attributes['error.type']).toBe('rate_limited');
    await expect(
      hook.wrapModelCall!(ctx, msgs, async () => {
        throw new TypeError('bug');
      }),
    ).rejects.toThrow('bug');
    expect(sink.ends[2].attributes['error.type']).toBe('TypeError');
  });

  it('records an execute_tool span; inner spans nest under it; tool errors fail it', async () => {
    const { recorder, sink } = recorderWithSink();
    const ctx = fakeContext({ trace: recorder });
    const call = { id: 'call_9', name: 'read_file', args: { path: '/ws/a.txt' } };
    await hook.wrapToolCall!(ctx, call, async (c) => {
      recorder.startSpan('hook before_tool_call guard', 'hook').end();
      return { tool_call_id: c.id, name: c.name, output: 'z'.repeat(700), status: 'ok' };
    });
    const tool = sink.ends.find((s) => s.kind === 'tool')!;
    const inner = sink.ends.find((s) => s.kind === 'hook')!;
    expect(inner.parent_span_id).toBe(tool.span_id);
    expect(tool).toMatchObject({
      name: 'execute_tool read_file',
      status: { code: 'OK' },
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'read_file',
        'gen_ai.tool.call.id': 'call_9',
        'gen_ai.tool.type': 'function',
        tool_name: 'read_file',
        tool_call_id: 'call_9',
        tool_args: '{"path":"/ws/a.txt"}',
        output_length: 700,
      },
    });
    expect((tool.attributes.output_preview as string).length).toBe(500);

    await hook.wrapToolCall!(ctx, { id: 'c2', name: 'shell', args: { cmd: 'x'.repeat(9000) } }, async (c) => ({
      tool_call_id: c.id,
      name: c.name,
      output: '',
      error: 'exit 1',
      status: 'error',
    }));
    const failed = sink.ends.at(-1)!;
    expect(failed.status).toEqual({ code: 'ERROR', message: 'exit 1' });
    expect(failed.attributes['error.type']).toBe('tool_error');
    expect((failed.attributes.tool_args as string).length).toBeLessThanOrEqual(4096);
  });

  it('gives a run with parallel tools one tree: root → chat, tools (each with its own children), chat', async () => {
    const { recorder, sink } = recorderWithSink();
    // A user hook inside the tracing ring that opens its own span, like the lifecycle runner does.
    const userHook: Hook = {
      name: 'guard',
      source: 'workspace',
      async wrapToolCall(ctx, call, next) {
        const span = ctx.trace!.startSpan(`hook before_tool_call guard`, 'hook', { 'workbench.hook.name': 'guard' });
        await turns(1);
        span.end();
        return next(call);
      },
    };
    const slow = testTool('slow', 'read', async () => {
      await turns(3);
      return 'slow done';
    });
    const fast = testTool('fast', 'read', async () => 'fast done');
    const llm = scriptedLlm([
      { tool_calls: [{ id: 'c1', name: 'slow', args: {} }, { id: 'c2', name: 'fast', args: {} }], usage: { input_tokens: 5, output_tokens: 6 } },
      { content: 'done', usage: { input_tokens: 7, output_tokens: 8 } },
    ]);
    const h = harness(llm, [slow, fast], { trace: recorder });
    const root = startRunSpan(recorder, { model: h.ctx.model, threadId: h.ctx.threadId, workspace: '/ws' });
    const summary = await recorder.withSpan(root, () =>
      runAgentLoop({
        ctx: h.ctx,
        pipeline: createPipeline([createTracingHook(), h.toolHook, userHook]),
        maxIterations: 5,
        append: h.append,
        replaceMessages: h.replace,
      }),
    );
    endRunSpan(root, summary);
    expect(h.events.filter((e) => e.event === 'on_hook_end')).toEqual([]);

    const spans = sink.spans();
    const report = validateSpanTree(spans);
    expect(report.errors).toEqual([]);
    const byId = new Map(spans.map((s) => [s.span_id, s]));
    const kids = (id: string) => spans.filter((s) => s.parent_span_id === id).sort((a, b) => a.start_ms - b.start_ms);
    expect(kids(root.record.span_id).map((s) => s.name)).toEqual(['chat test-model', 'execute_tool slow', 'execute_tool fast', 'chat test-model']);
    for (const tool of spans.filter((s) => s.kind === 'tool')) {
      expect(kids(tool.span_id).map((s) => s.name)).toEqual(['hook before_tool_call guard']);
    }
    const rootRec = byId.get(root.record.span_id)!;
    expect(rootRec.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 12, 'gen_ai.usage.output_tokens': 14, 'workbench.iterations': 2 });
    const [firstChat] = spans.filter((s) => s.kind === 'llm');
    expect(firstChat.attributes['workbench.tool_call_ids']).toEqual(['c1', 'c2']);
  });
});

/**
 * The tracing middleware (on the OTel GenAI span model): the outermost ring around model and
 * tool calls. `chat {model}` and `execute_tool {tool}` spans; `next` runs inside the span so inner
 * hooks' spans nest under it. No-op when the run has no trace recorder.
 */
import type { Hook, MiddlewareInfo } from '../pipeline/hook.ts';
import type { LlmResponse, ModelRequest } from '../llm/types.ts';
import type { ToolResult } from '../../shared/types/index.ts';
import { jsonPreview, PREVIEW_CHARS, truncate } from '../tracing/attributes.ts';
import { PROVIDER_NAME } from '../tracing/run-span.ts';
import { runInSpan } from '../tracing/in-span.ts';
import { requestAttributes } from '../tracing/request-capture.ts';
import type { SpanHandle } from '../tracing/types.ts';
import { createPrefixSum } from '../agent/prefix-sum.ts';

function recordResponse(span: SpanHandle, res: LlmResponse): void {
  const calls = res.tool_calls ?? [];
  span.setAll({
    content_length: res.content.length,
    tool_calls_count: calls.length,
    'workbench.output.preview': truncate(res.content, PREVIEW_CHARS),
    tool_call_names: calls.map((c) => c.name),
    'workbench.tool_call_ids': calls.map((c) => c.id),
    'gen_ai.usage.input_tokens': res.usage?.input_tokens,
    'gen_ai.usage.output_tokens': res.usage?.output_tokens,
    'gen_ai.response.finish_reasons': res.finish_reason ? [res.finish_reason] : undefined,
  });
  if (res.invalid_args)
    span.set('workbench.invalid_args_count', Object.keys(res.invalid_args).length);
  if (res.interrupted) span.fail('stream_interrupted', res.error ?? 'the stream broke off');
}

function recordToolResult(span: SpanHandle, res: ToolResult): void {
  span.setAll({
    output_length: res.output.length,
    output_preview: truncate(res.output, PREVIEW_CHARS),
  });
  if (res.error !== undefined) span.fail('tool_error', res.error);
}

/** Content characters of a message list, remembered so a round measures only the new messages. */
const contentChars = createPrefixSum((m) => m.content.length);

function inputLength(req: ModelRequest): number {
  let n = 0;
  for (const block of req.system) n += block.length;
  return n + contentChars.total(req.messages);
}

export const tracingInfo: MiddlewareInfo = {
  name: 'tracing',
  description: 'Records a span for every model call, tool call and hook run',
  phases: ['wrap_model_call', 'wrap_tool_call'],
};

/** Creates the tracing hook. Contract: rethrows whatever the inner call throws, after recording it. */
export function createTracingHook(): Hook {
  return {
    name: tracingInfo.name,
    source: 'builtin',
    description: tracingInfo.description,
    async wrapModelCall(ctx, req, next) {
      const trace = ctx.trace;
      if (!trace) return next(req);
      return runInSpan(
        trace,
        `chat ${req.model}`,
        'llm',
        {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': PROVIDER_NAME,
          'gen_ai.request.model': req.model,
          'gen_ai.conversation.id': ctx.threadId,
          'gen_ai.request.stream': true,
          // The system blocks go out as one leading system message.
          message_count: req.messages.length + (req.system.length ? 1 : 0),
          'workbench.input.length': inputLength(req),
          ...requestAttributes(req),
          ...(req.params.temperature !== undefined
            ? { 'gen_ai.request.temperature': req.params.temperature }
            : {}),
          ...(req.params.max_tokens !== undefined
            ? { 'gen_ai.request.max_tokens': req.params.max_tokens }
            : {}),
        },
        async (span) => {
          const res = await next(req);
          if (span) recordResponse(span, res);
          return res;
        },
      );
    },
    async wrapToolCall(ctx, call, next) {
      const trace = ctx.trace;
      if (!trace) return next(call);
      const description = ctx.tools?.get(call.name)?.description;
      return runInSpan(
        trace,
        `execute_tool ${call.name}`,
        'tool',
        {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': call.name,
          'gen_ai.tool.call.id': call.id,
          'gen_ai.tool.type': 'function',
          ...(description
            ? { 'gen_ai.tool.description': truncate(description, PREVIEW_CHARS) }
            : {}),
          tool_name: call.name,
          tool_call_id: call.id,
          tool_args:
            call.raw_args !== undefined ? truncate(call.raw_args, 4096) : jsonPreview(call.args),
        },
        async (span) => {
          const res = await next(call);
          if (span) recordToolResult(span, res);
          return res;
        },
      );
    },
  };
}

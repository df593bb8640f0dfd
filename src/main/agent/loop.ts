/**
 * The agent loop (docs/architecture.md): before_agent once, then up to `maxIterations` rounds of
 * modify_request → wrap_model_call → after_turn → (agent_stop | tools in parallel through
 * wrap_tool_call), appending every message as it is produced. Every phase runs through the pipeline
 * (pipeline/run-phase.ts), which applies the phase table.
 */
import type { Message, RunStopReason, ToolCall, ToolResult } from '../../shared/types/index.ts';
import type { LlmResponse, ModelParams, ModelRequest } from '../llm/types.ts';
import type { RunContext, TurnOutcome } from '../pipeline/hook.ts';
import { isAbortError } from '../abort.ts';
import { errorMessage } from '../errors.ts';
import { reportHookFailure } from '../pipeline/compose.ts';
import type { Pipeline } from '../pipeline/run-phase.ts';
import { validate } from './messages.ts';
import { dispatchToolCall } from './tool-dispatch.ts';
import { mapBounded } from './map-bounded.ts';
import { redactSecrets } from '../secrets/redaction.ts';
import { LlmError } from '../llm/types.ts';

export interface AgentLoopInput {
  ctx: RunContext;
  pipeline: Pipeline;
  maxIterations: number;
  /** Appends messages to the thread (persisted; also pushes them onto ctx.state.messages). */
  append: (msgs: Message[]) => void;
  /** Replaces the whole conversation (lifecycle `mutate`; also updates ctx.state.messages). */
  replaceMessages: (msgs: Message[]) => void;
  /** Sampling parameters every request starts with (modify_request hooks may change them). */
  params?: ModelParams;
  /** Called with each request at the centre of the model onion: exactly what goes to the model. */
  onRequest?: (req: ModelRequest) => void;
  /**
   * The calls reading the person's `@` mentions (agent/mentions.ts), made before the first turn;
   * asked after before_agent, which registers the MCP servers' tools.
   */
  mentions?: () => ToolCall[];
}

export interface RunSummary {
  stop_reason: RunStopReason;
  iterations: number;
  error?: string;
  /** The model error's code (unauthorized, unreachable, model_not_found…) when the model call failed. */
  error_code?: string;
  /** The HTTP status of the model's error answer, when it had one. */
  error_status?: number;
  input_tokens: number;
  output_tokens: number;
}

const CANCELLED_RESULT = 'cancelled: the user stopped the run before this tool finished';

/**
 * Runs the loop to its end.
 * Contract: never rejects for model, tool or hook failures (they end the run with stop_reason
 * 'error'); a cancel ends it with 'cancelled' and leaves the thread valid (every tool call answered);
 * an invalid message chain is never sent to the model (the run ends with 'error' naming the problem).
 */
export async function runAgentLoop(input: AgentLoopInput): Promise<RunSummary> {
  const { ctx, pipeline } = input;
  const summary: RunSummary = { stop_reason: 'completed', iterations: 0, input_tokens: 0, output_tokens: 0 };
  try {
    await pipeline.beforeAgent(ctx);
    // The tools the last request offered: a call to any other tool is refused before any hook sees it.
    let offered = new Set<string>();
    const callModel = pipeline.modelCall(ctx, (req) => {
      checkRequest(req);
      offered = new Set(req.tools.map((t) => t.name));
      input.onRequest?.(req);
      return terminalModelCall(ctx, req);
    });
    let pendingInvalidArgs: Record<string, string> = {};
    const callTool = pipeline.toolCall(ctx, (call) =>
      dispatchToolCall(call, {
        tools: ctx.tools,
        invalidArgs: pendingInvalidArgs,
        trace: ctx.trace,
        retries: ctx.profile.retries,
        onRetry: (c, r) =>
          ctx.emit({
            event: 'on_tool_retry',
            name: c.name,
            data: { tool_call_id: c.id, attempt: r.attempt, max_attempts: r.maxAttempts, kind: r.kind, delay_ms: r.delayMs, error: r.error },
          }),
        context: (c) => {
          // Made inside the call's span: a person's answer to a server counts as waiting, not tool time.
          const span = ctx.trace?.currentSpan();
          return {
            callId: c.id,
            workspace: ctx.workspace,
            signal: ctx.signal,
            state: ctx.state,
            env: ctx.toolEnv,
            // Live output reaches the stream redacted, like the result (agent/tool-dispatch.ts).
            onOutput: (stream, chunk) =>
              ctx.emit({ event: 'on_tool_output', name: c.name, data: { tool_call_id: c.id, stream, chunk: redactSecrets(chunk) } }),
            elicit: ctx.elicit ? (ask) => ctx.elicit!({ ...ask, callId: c.id }, span) : undefined,
          };
        },
      }),
    );
    const offeredTool = (call: ToolCall) => (offered.has(call.name) ? callTool(call) : Promise.resolve(notOffered(call, offered)));
    const mentions = input.mentions?.() ?? [];
    if (mentions.length && (await readMentions(input, mentions, callTool))) {
      summary.stop_reason = 'blocked';
      return summary;
    }

    while (summary.iterations < input.maxIterations) {
      ctx.signal.throwIfAborted();
      summary.iterations++;
      const request = await pipeline.modifyRequest(ctx, newRequest(ctx, input.params));
      const response = await callModel(request);
      summary.input_tokens += response.usage?.input_tokens ?? 0;
      summary.output_tokens += response.usage?.output_tokens ?? 0;
      const assistant = assistantMessage(response);
      if (assistant) input.append([assistant]);
      ctx.emit({
        event: 'on_model_end',
        name: ctx.model,
        data: {
          content: response.content,
          tool_calls: assistant?.tool_calls ?? [],
          usage: response.usage,
          interrupted: response.interrupted,
          finish_reason: response.finish_reason,
        },
      });
      if (response.interrupted) {
        summary.stop_reason = 'error';
        summary.error = `the model's answer broke off: ${response.error ?? 'stream interrupted'}`;
        summary.error_code = 'stream_broken';
        return summary;
      }

      const turn = await pipeline.afterTurn(ctx, { turn: summary.iterations, response });
      const calls = assistant?.tool_calls ?? [];
      if (calls.length === 0) {
        await applyOutcome(input, 'after_turn', turn, []);
        const stop = await pipeline.agentStop(ctx, ctx.state.messages);
        await applyOutcome(input, 'agent_stop', stop, []);
        if (stop.follow_up_messages?.length) {
          input.append(stop.follow_up_messages.map((content) => ({ role: 'user', content })));
          continue;
        }
        return summary;
      }

      pendingInvalidArgs = response.invalid_args ?? {};
      const results = await runToolCalls(ctx, calls, offeredTool);
      // A hook that said `continue: false` ends the run once the turn's results are stored, and so
      // does one that stops the loop once the whole batch is in (Claude PostToolBatch).
      const halted = results.some((r) => r.halt);
      const batch = halted ? {} : await pipeline.afterToolBatch(ctx, { calls, results });
      const toolMessages = withFeedback(results.map(toToolMessage), batch.context);
      input.append(toolMessages);
      ctx.emit({ event: 'on_tools_complete', data: { count: calls.length } });
      if (halted || batch.halt) {
        summary.stop_reason = 'blocked';
        return summary;
      }
      // A mutate waits until the turn's tool results are in, so no result is left without its call.
      await applyOutcome(input, 'after_turn', turn, [assistant!, ...toolMessages]);
    }
    summary.stop_reason = 'max_iterations';
    return summary;
  } catch (err) {
    answerOpenToolCalls(input);
    if (isAbortError(err) || ctx.signal.aborted) {
      summary.stop_reason = 'cancelled';
      return summary;
    }
    summary.stop_reason = 'error';
    summary.error = errorMessage(err);
    if (err instanceof LlmError) {
      summary.error_code = err.code;
      if (err.status !== undefined) summary.error_status = err.status;
    }
    return summary;
  } finally {
    await pipeline.afterAgent(ctx, { stop_reason: summary.stop_reason, error: summary.error, error_code: summary.error_code, error_status: summary.error_status });
  }
}

/**
 * Reads the person's mentions as a turn of their own: the calls, then their results, stored as the
 * model's would be, so the model, the chat and the trace see what was read and what was refused.
 * Returns true when a hook ended the run (`continue: false`).
 */
async function readMentions(input: AgentLoopInput, calls: ToolCall[], callTool: (c: ToolCall) => Promise<ToolResult>): Promise<boolean> {
  input.append([{ role: 'assistant', content: '', tool_calls: calls }]);
  const results = await runToolCalls(input.ctx, calls, callTool);
  input.append(results.map(toToolMessage));
  input.ctx.emit({ event: 'on_tools_complete', data: { count: calls.length } });
  return results.some((r) => r.halt);
}

/** The batch's tool messages with what its hooks tell the model after the last one. */
function withFeedback(messages: Message[], context: readonly string[] | undefined): Message[] {
  if (!context?.length || messages.length === 0) return messages;
  const last = messages.at(-1)!;
  const content = `${last.content}\n\n<hook_feedback>\n${context.join('\n')}\n</hook_feedback>`;
  return [...messages.slice(0, -1), { ...last, content }];
}

/** A fresh request for this round: the whole stored thread, every registered tool, no system blocks yet. */
function newRequest(ctx: RunContext, params: ModelParams = {}): ModelRequest {
  return { model: ctx.model, system: [], messages: ctx.state.messages.slice(), tools: ctx.tools.schemas(), params: { ...params } };
}

/** Refuses to send a request whose message chain a server would reject. */
function checkRequest(req: ModelRequest): void {
  try {
    if (req.messages.length === 0) throw new Error('no messages');
    validate(req.messages);
  } catch (err) {
    throw new Error(`invalid conversation, not sent to the model: ${errorMessage(err)}`, { cause: err });
  }
}

function notOffered(call: ToolCall, offered: ReadonlySet<string>): ToolResult {
  return { tool_call_id: call.id, name: call.name, output: '', error: `unknown tool "${call.name}". Available tools: ${[...offered].join(', ')}`, status: 'error' };
}

function terminalModelCall(ctx: RunContext, req: ModelRequest): Promise<LlmResponse> {
  return ctx.llm.chat(req, {
    signal: ctx.signal,
    onDelta: (delta) => ctx.emit({ event: 'on_chat_model_stream', data: { delta } }),
    onRetry: (attempt, delayMs, reason) => ctx.trace?.currentSpan()?.addEvent('retry', { attempt, delay_ms: delayMs, reason }),
    onFirstChunk: () => ctx.trace?.currentSpan()?.addEvent('first_chunk'),
  });
}

/** The assistant message to keep: a broken stream keeps its partial text but none of its tool calls. */
function assistantMessage(response: LlmResponse): Message | undefined {
  if (response.interrupted) {
    return response.content ? { role: 'assistant', content: response.content, interrupted: true } : undefined;
  }
  const calls = response.tool_calls;
  if (!response.content && calls.length === 0) return { role: 'assistant', content: '(no answer)' };
  return calls.length ? { role: 'assistant', content: response.content, tool_calls: calls } : { role: 'assistant', content: response.content };
}

async function runToolCalls(ctx: RunContext, calls: ToolCall[], callTool: (c: ToolCall) => Promise<ToolResult>): Promise<ToolResult[]> {
  for (const call of calls) {
    ctx.emit({ event: 'on_tool_pending', name: call.name, data: { tool_call_id: call.id, tool_name: call.name } });
  }
  // At most max_parallel_tools at once (300 calls must not start 300 processes); results come back
  // in call order whatever order they finish in.
  return mapBounded(calls, ctx.settings.max_parallel_tools ?? 8, async (call) => {
    const started = performance.now();
    ctx.emit({ event: 'on_tool_start', name: call.name, data: { args: call.args, tool_call_id: call.id } });
    let result: ToolResult;
    try {
      // A call still waiting for a slot when the run is cancelled never starts.
      ctx.signal.throwIfAborted();
      result = await callTool(call);
    } catch (err) {
      if (isAbortError(err) || ctx.signal.aborted) {
        result = { tool_call_id: call.id, name: call.name, output: '', error: CANCELLED_RESULT, status: 'cancelled' };
      } else {
        result = { tool_call_id: call.id, name: call.name, output: '', error: errorMessage(err), status: 'error' };
      }
    }
    ctx.emit({
      event: 'on_tool_end',
      name: call.name,
      data: {
        output: result.output,
        error: result.error,
        status: result.status,
        tool_call_id: call.id,
        duration_ms: Math.round(performance.now() - started),
        ...(result.rewritten ? { args: result.rewritten.args, rewritten_by: result.rewritten.by } : {}),
        ...(result.attempts ? { attempts: result.attempts } : {}),
      },
    });
    return result;
  }).then((results) => {
    ctx.signal.throwIfAborted();
    return results;
  });
}

/** Tool message content: the output, or the error for the model to read and correct. */
function toToolMessage(r: ToolResult): Message {
  const content = r.error ? `Error: ${r.error}${r.output ? `\n${r.output}` : ''}` : r.output;
  return { role: 'tool', content, tool_call_id: r.tool_call_id, name: r.name, status: r.status };
}

/** After a cancel or crash inside the loop, answers every tool call left without a result. */
function answerOpenToolCalls(input: AgentLoopInput): void {
  const msgs = input.ctx.state.messages;
  const answered = new Set<string>();
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (m.role === 'tool' && m.tool_call_id) answered.add(m.tool_call_id);
    if (m.role === 'assistant') {
      const open = (m.tool_calls ?? []).filter((c) => !answered.has(c.id));
      if (open.length) input.append(open.map((c) => ({ role: 'tool', content: `Error: ${CANCELLED_RESULT}`, tool_call_id: c.id, name: c.name, status: 'cancelled' })));
      return;
    }
  }
}

/**
 * Applies a `mutate` and `callback: "compact"`. `turn` is the finished turn's assistant message and
 * tool results: they are kept after the new history (the hook could not see the results), unless
 * the hook's list already holds that assistant message, where the list is cut. A result that would
 * not be a valid conversation is refused and reported as the hook's failure.
 */
async function applyOutcome(input: AgentLoopInput, phase: string, outcome: TurnOutcome & { mutate_by?: string }, turn: Message[]): Promise<void> {
  if (outcome.mutate) {
    const ids = new Set((turn[0]?.tool_calls ?? []).map((c) => c.id));
    const echoed = ids.size ? outcome.mutate.findIndex((m) => m.role === 'assistant' && (m.tool_calls ?? []).some((c) => ids.has(c.id))) : -1;
    const next = [...(echoed >= 0 ? outcome.mutate.slice(0, echoed) : outcome.mutate), ...turn];
    try {
      validate(next);
      input.replaceMessages(next);
    } catch (err) {
      reportHookFailure(input.ctx, outcome.mutate_by ?? 'unknown', phase, new Error(`mutate refused: ${errorMessage(err)}`));
    }
  }
  if (outcome.callback === 'compact') await input.pipeline.compactThread(input.ctx);
}

/**
 * The agent loop (seed 000 §8, ARCHITECTURE §3 step 3–4): before_agent once, then up to
 * `maxIterations` rounds of modify_request → wrap_model_call → after_turn → (agent_stop | tools in
 * parallel through wrap_tool_call), appending every message as it is produced.
 */
import type { Message, RunStopReason, ToolCall, ToolResult } from '../../shared/types/index.ts';
import type { LlmResponse } from '../llm/types.ts';
import type { Hook, RunContext, StopOutcome, TurnOutcome } from '../pipeline/hook.ts';
import { composeModelCall, composeToolCall, isAbortError, runBeforeAgent, runModifyRequest, type HookFailureReporter } from '../pipeline/compose.ts';
import { dispatchToolCall } from './tool-dispatch.ts';

export interface AgentLoopInput {
  ctx: RunContext;
  hooks: readonly Hook[];
  maxIterations: number;
  /** Appends messages to the thread (persisted; also pushes them onto ctx.state.messages). */
  append: (msgs: Message[]) => void;
  /** Replaces the whole conversation (lifecycle `mutate`); absent → mutate is ignored. */
  replaceMessages?: (msgs: Message[]) => void;
  reportHookFailure: HookFailureReporter;
}

export interface RunSummary {
  stop_reason: RunStopReason;
  iterations: number;
  error?: string;
  input_tokens: number;
  output_tokens: number;
}

const CANCELLED_RESULT = 'cancelled: the user stopped the run before this tool finished';

/**
 * Runs the loop to its end.
 * Contract: never rejects for model, tool or hook failures (they end the run with stop_reason
 * 'error'); a cancel ends it with 'cancelled' and leaves the thread valid (every tool call answered).
 */
export async function runAgentLoop(input: AgentLoopInput): Promise<RunSummary> {
  const { ctx, hooks } = input;
  const summary: RunSummary = { stop_reason: 'completed', iterations: 0, input_tokens: 0, output_tokens: 0 };
  try {
    await runBeforeAgent(hooks, ctx, ctx.state, input.reportHookFailure);
    const callModel = composeModelCall(hooks, ctx, (msgs) => terminalModelCall(ctx, msgs), input.reportHookFailure);
    let pendingInvalidArgs: Record<string, string> = {};
    const callTool = composeToolCall(
      hooks,
      ctx,
      (call) =>
        dispatchToolCall(call, {
          tools: ctx.tools,
          invalidArgs: pendingInvalidArgs,
          trace: ctx.trace,
          context: (c) => ({ callId: c.id, workspace: ctx.workspace, signal: ctx.signal, state: ctx.state }),
        }),
      input.reportHookFailure,
    );

    while (summary.iterations < input.maxIterations) {
      ctx.signal.throwIfAborted();
      summary.iterations++;
      const request = await runModifyRequest(hooks, ctx, ctx.state.messages.slice(), input.reportHookFailure);
      const response = await callModel(request);
      summary.input_tokens += response.usage?.input_tokens ?? 0;
      summary.output_tokens += response.usage?.output_tokens ?? 0;
      const assistant = assistantMessage(response);
      if (assistant) input.append([assistant]);
      ctx.emit({
        event: 'on_model_end',
        run_id: ctx.runId,
        thread_id: ctx.threadId,
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
        return summary;
      }

      await applyTurnOutcome(input, await runAfterTurn(hooks, ctx, summary.iterations, response, input.reportHookFailure));

      const calls = assistant?.tool_calls ?? [];
      if (calls.length === 0) {
        const stop = await runAgentStop(hooks, ctx, input.reportHookFailure);
        await applyTurnOutcome(input, stop);
        if (stop.follow_up_messages?.length) {
          input.append(stop.follow_up_messages.map((content) => ({ role: 'user', content })));
          continue;
        }
        return summary;
      }

      pendingInvalidArgs = response.invalid_args ?? {};
      const results = await runToolCalls(ctx, calls, callTool);
      input.append(results.map(toToolMessage));
      ctx.emit({ event: 'on_tools_complete', run_id: ctx.runId, thread_id: ctx.threadId, data: { count: calls.length } });
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
    summary.error = err instanceof Error ? err.message : String(err);
    return summary;
  } finally {
    for (const hook of hooks) {
      if (!hook.afterAgent) continue;
      try {
        await hook.afterAgent(ctx, { stop_reason: summary.stop_reason });
      } catch (err) {
        input.reportHookFailure(hook, 'after_agent', err);
      }
    }
  }
}

function terminalModelCall(ctx: RunContext, msgs: Message[]): Promise<LlmResponse> {
  return ctx.llm.chat(
    { model: ctx.model, messages: msgs, tools: ctx.tools.schemas() },
    {
      signal: ctx.signal,
      onDelta: (delta) => ctx.emit({ event: 'on_chat_model_stream', run_id: ctx.runId, thread_id: ctx.threadId, data: { delta } }),
      onRetry: (attempt, delayMs, reason) => ctx.trace?.currentSpan()?.addEvent('retry', { attempt, delay_ms: delayMs, reason }),
      onFirstChunk: () => ctx.trace?.currentSpan()?.addEvent('first_chunk'),
    },
  );
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
    ctx.emit({ event: 'on_tool_pending', run_id: ctx.runId, thread_id: ctx.threadId, name: call.name, data: { tool_call_id: call.id, tool_name: call.name } });
  }
  // Parallel execution; results come back in call order whatever order they finish in.
  return Promise.all(
    calls.map(async (call) => {
      const started = performance.now();
      ctx.emit({ event: 'on_tool_start', run_id: ctx.runId, thread_id: ctx.threadId, name: call.name, data: { args: call.args, tool_call_id: call.id } });
      let result: ToolResult;
      try {
        result = await callTool(call);
      } catch (err) {
        if (isAbortError(err) || ctx.signal.aborted) {
          result = { tool_call_id: call.id, name: call.name, output: '', error: CANCELLED_RESULT, status: 'cancelled' };
        } else {
          result = { tool_call_id: call.id, name: call.name, output: '', error: err instanceof Error ? err.message : String(err), status: 'error' };
        }
      }
      ctx.emit({
        event: 'on_tool_end',
        run_id: ctx.runId,
        thread_id: ctx.threadId,
        name: call.name,
        data: { output: result.output, error: result.error, tool_call_id: call.id, duration_ms: Math.round(performance.now() - started), status: result.status },
      });
      return result;
    }),
  ).then((results) => {
    ctx.signal.throwIfAborted();
    return results;
  });
}

/** Tool message content: the output, or the error for the model to read and correct. */
export function toToolMessage(r: ToolResult): Message {
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

async function runAfterTurn(hooks: readonly Hook[], ctx: RunContext, turn: number, response: LlmResponse, report: HookFailureReporter): Promise<TurnOutcome> {
  const merged: TurnOutcome = {};
  for (const hook of hooks) {
    if (!hook.afterTurn) continue;
    try {
      const out = await hook.afterTurn(ctx, { turn, response });
      if (out.mutate) merged.mutate = out.mutate;
      if (out.callback) merged.callback = out.callback;
    } catch (err) {
      if (isAbortError(err)) throw err;
      report(hook, 'after_turn', err);
    }
  }
  return merged;
}

/** agent_stop: follow-up messages from every hook accumulate (seed 002 "Message Accumulation"). */
async function runAgentStop(hooks: readonly Hook[], ctx: RunContext, report: HookFailureReporter): Promise<StopOutcome> {
  const merged: StopOutcome = {};
  for (const hook of hooks) {
    if (!hook.onAgentStop) continue;
    try {
      const out = await hook.onAgentStop(ctx, ctx.state.messages);
      if (out.follow_up_messages?.length) (merged.follow_up_messages ??= []).push(...out.follow_up_messages);
      if (out.mutate) merged.mutate = out.mutate;
      if (out.callback) merged.callback = out.callback;
    } catch (err) {
      if (isAbortError(err)) throw err;
      report(hook, 'agent_stop', err);
    }
  }
  return merged;
}

/** Applies `mutate` and `callback: "compact"`; a failed compaction leaves the thread as it was. */
async function applyTurnOutcome(input: AgentLoopInput, outcome: TurnOutcome): Promise<void> {
  if (outcome.mutate && input.replaceMessages) input.replaceMessages(outcome.mutate);
  if (outcome.callback === 'compact' && input.ctx.compact) {
    await input.ctx.compact().catch((err: unknown) => {
      input.ctx.trace?.recordEvent('compaction_failed', { message: err instanceof Error ? err.message : String(err) });
    });
  }
}

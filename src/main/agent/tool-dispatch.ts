/**
 * The centre of the wrap_tool_call onion: finds the tool, validates the model's arguments (the one
 * place a call with invalid arguments is refused), executes under the tool's retry policy
 * (agent/tool-retry.ts), and turns every outcome into a ToolResult with its status. The one place tool output enters the run,
 * so the API key is redacted here: nothing outside (hooks, store, trace, model) ever sees it.
 */
import type { ToolCall, ToolResult } from '../../shared/types/index.ts';
import { toolOutput, type Tool, type ToolContext } from '../tools/types.ts';
import { parseToolArgs } from '../tools/call-policy.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { TraceRecorder } from '../tracing/types.ts';
import { abortError, isAbortError } from '../abort.ts';
import { redactSecrets } from '../secrets/redaction.ts';
import { retryPolicy, withRetries, type RetryNotice, type RetryRules } from './tool-retry.ts';

export interface DispatchOptions {
  tools: ToolRegistry;
  /** Calls whose argument JSON did not parse (from the LLM response): id → parse error. */
  invalidArgs?: Record<string, string>;
  context: (call: ToolCall) => ToolContext;
  trace?: TraceRecorder;
  /** agent.yaml `retries`: attempts, backoff and jitter per tool. */
  retries?: RetryRules;
  /** Replaces the backoff between retries (tests). */
  backoffMs?: (attempt: number) => number;
  /** Told before each retry's wait (the loop emits `on_tool_retry`). */
  onRetry?: (call: ToolCall, r: RetryNotice) => void;
}

const fail = (call: ToolCall, error: string): ToolResult => ({
  tool_call_id: call.id,
  name: call.name,
  output: '',
  error,
  status: 'error',
});

/** Contract: never rejects except on abort; output and error never contain a registered secret. */
export async function dispatchToolCall(call: ToolCall, opts: DispatchOptions): Promise<ToolResult> {
  const result = await dispatch(call, opts);
  const redacted = { ...result, output: redactSecrets(result.output) };
  if (result.error !== undefined) redacted.error = redactSecrets(result.error);
  if (result.streams)
    redacted.streams = {
      stdout: redactSecrets(result.streams.stdout),
      stderr: redactSecrets(result.streams.stderr),
    };
  return redacted;
}

async function dispatch(call: ToolCall, opts: DispatchOptions): Promise<ToolResult> {
  const parseError = opts.invalidArgs?.[call.id];
  if (parseError !== undefined) {
    return fail(
      call,
      `invalid JSON in the arguments of ${call.name}: ${parseError}. Send the arguments again as one JSON object.`,
    );
  }
  const tool = opts.tools.get(call.name);
  if (!tool) {
    const names = opts.tools
      .list()
      .map((t) => t.name)
      .join(', ');
    return fail(call, `unknown tool "${call.name}". Available tools: ${names}`);
  }
  const parsed = parseToolArgs(tool, call.args);
  if (!parsed.ok) return fail(call, `invalid arguments for ${call.name}: ${parsed.issues}`);
  return executeWithRetries(tool, call, parsed.args, opts);
}

async function executeWithRetries(
  tool: Tool,
  call: ToolCall,
  args: unknown,
  opts: DispatchOptions,
): Promise<ToolResult> {
  const ctx = opts.context(call);
  const policy = retryPolicy(opts.retries, tool);
  let outcome;
  try {
    outcome = await withRetries(
      async () => toolOutput(await untilAborted(tool.execute(args, ctx), ctx.signal)),
      {
        policy,
        signal: ctx.signal,
        trace: opts.trace,
        delayMs: opts.backoffMs,
        onRetry: (r) => opts.onRetry?.(call, { ...r, error: redactSecrets(r.error) }),
      },
    );
  } catch (err) {
    throw isAbortError(err) ? err : abortError(ctx.signal);
  }
  const attempts =
    policy.maxAttempts > 1 || outcome.attempts > 1
      ? { attempts: { n: outcome.attempts, max: policy.maxAttempts } }
      : {};
  if (!outcome.ok) {
    const { message, attempts: n } = outcome;
    return { ...fail(call, n > 1 ? `${message} (after ${n} attempts)` : message), ...attempts };
  }
  const { content, status, streams } = outcome.value;
  return { tool_call_id: call.id, name: call.name, output: content, status, ...(streams ? { streams } : {}), ...attempts };
}

/** The tool's promise, or an abort error as soon as the run is cancelled: a call that never returns still ends. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  // The call may still settle after the run gave up on it; that late outcome is nobody's to handle.
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal.removeEventListener('abort', onAbort);
    work.then(
      (value) => (settle(), resolve(value)),
      (err: unknown) => (settle(), reject(err)),
    );
  });
}

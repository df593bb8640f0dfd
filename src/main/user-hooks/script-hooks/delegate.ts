/**
 * `delegate` (docs/agents.md#script-hooks-create--next): hands the turn to another profile through the
 * run's `runSubagent`, and gives back its answer. A delegate that cannot run or does not finish well
 * is an error for the caller to report.
 */
import type { Message } from '../../../shared/types/index.ts';
import type { SubagentOptions, SubagentResult } from '../../agents/subagent-types.ts';
import type { RunContext } from '../../pipeline/hook.ts';
import { runInSpan } from '../../tracing/in-span.ts';
import { plainMessages, type ScriptDelegate } from './results.ts';

/** The subagent options among a delegate's `options`; other keys are left out. */
function subagentOptions(options: Record<string, unknown> = {}): SubagentOptions {
  const out: SubagentOptions = {};
  for (const key of ['temperature', 'max_tokens', 'max_completion_tokens'] as const) {
    const value = options[key];
    if (typeof value === 'number') out[key] = value;
  }
  const metadata = options.metadata;
  if (metadata && typeof metadata === 'object' && !Array.isArray(metadata))
    out.metadata = metadata as Record<string, unknown>;
  return out;
}

/**
 * Runs the delegate; `fallback` is used when it names no messages.
 * Contract: resolves only with an 'ok' result; rejects when subagents are unavailable, the profile
 * fails, or the run is cancelled (an AbortError then).
 */
export async function runDelegate(
  ctx: RunContext,
  hook: string,
  delegate: ScriptDelegate,
  fallback: Message[],
): Promise<SubagentResult> {
  if (!ctx.runSubagent) {
    throw new Error(
      `cannot delegate to "${delegate.agent_id}": no subagent can run here (depth limit)`,
    );
  }
  const messages = plainMessages(delegate.messages ?? []);
  const run = ctx.runSubagent;
  // The subagent's run nests under this span in the trace.
  const result = await runInSpan(
    ctx.trace,
    `delegate ${delegate.agent_id}`,
    'internal',
    { 'workbench.hook.name': hook, 'workbench.delegate.agent': delegate.agent_id },
    async (span) => {
      const res = await run({
        agent: delegate.agent_id,
        messages: messages.length ? messages : fallback,
        options: subagentOptions(delegate.options),
        description: `delegated by ${hook}`,
      });
      span?.setAll({
        'workbench.delegate.status': res.status,
        'workbench.delegate.thread_id': res.threadId,
      });
      if (res.status !== 'ok') span?.fail(`delegate_${res.status}`, res.error);
      return res;
    },
  );
  ctx.signal.throwIfAborted();
  if (result.status !== 'ok') {
    throw new Error(
      `delegate "${delegate.agent_id}" ${result.status}${result.error ? `: ${result.error}` : ''}`,
    );
  }
  return result;
}

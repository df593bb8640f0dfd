/**
 * Composition of the hook pipeline (seed 000 §5): sequential phases run hooks in order; wrap phases
 * build an onion with the first hook outermost. A hook that throws is isolated: the failure is
 * reported and the call continues as if the hook were absent — except aborts, which always propagate.
 */
import type { AgentState, Message } from '../../shared/types/index.ts';
import type { Hook, ModelCallFn, RunContext, ToolCallFn } from './hook.ts';
import { isAbortError } from '../abort.ts';

export type HookFailureReporter = (hook: Hook, phase: string, error: unknown) => void;

/** Runs `beforeAgent` on every hook in order. */
export async function runBeforeAgent(hooks: readonly Hook[], ctx: RunContext, state: AgentState, report: HookFailureReporter): Promise<void> {
  for (const hook of hooks) {
    if (!hook.beforeAgent) continue;
    try {
      await hook.beforeAgent(ctx, state);
    } catch (err) {
      if (isAbortError(err)) throw err;
      report(hook, 'before_agent', err);
    }
  }
}

/** Runs `modifyRequest` hooks in order, each transforming the previous one's output. */
export async function runModifyRequest(hooks: readonly Hook[], ctx: RunContext, msgs: Message[], report: HookFailureReporter): Promise<Message[]> {
  let current = msgs;
  for (const hook of hooks) {
    if (!hook.modifyRequest) continue;
    try {
      current = await hook.modifyRequest(ctx, current);
    } catch (err) {
      if (isAbortError(err)) throw err;
      report(hook, 'modify_request', err);
    }
  }
  return current;
}

/**
 * Builds the wrap_model_call onion around `terminal`.
 * Contract: hooks[0] is outermost. A hook that throws before calling `next` is skipped (its inner
 * chain runs instead); an error thrown by the inner chain itself propagates unchanged.
 */
export function composeModelCall(hooks: readonly Hook[], ctx: RunContext, terminal: ModelCallFn, report: HookFailureReporter): ModelCallFn {
  let fn = terminal;
  for (let i = hooks.length - 1; i >= 0; i--) {
    const hook = hooks[i];
    if (!hook.wrapModelCall) continue;
    const inner = fn;
    fn = (msgs) => isolate(hook, 'wrap_model_call', report, inner, msgs, (next) => hook.wrapModelCall!(ctx, msgs, next));
  }
  return fn;
}

/** Builds the wrap_tool_call onion around `terminal`, first hook outermost (same contract). */
export function composeToolCall(hooks: readonly Hook[], ctx: RunContext, terminal: ToolCallFn, report: HookFailureReporter): ToolCallFn {
  let fn = terminal;
  for (let i = hooks.length - 1; i >= 0; i--) {
    const hook = hooks[i];
    if (!hook.wrapToolCall) continue;
    const inner = fn;
    fn = (call) => isolate(hook, 'wrap_tool_call', report, inner, call, (next) => hook.wrapToolCall!(ctx, call, next));
  }
  return fn;
}

/**
 * Runs one ring. Errors coming from `inner` (the rest of the chain) are rethrown as they are; an error
 * raised by the hook's own code is reported, and the call falls through to `inner` if the hook never
 * reached it.
 */
async function isolate<A, R>(
  hook: Hook,
  phase: string,
  report: HookFailureReporter,
  inner: (arg: A) => Promise<R>,
  arg: A,
  ring: (next: (arg: A) => Promise<R>) => Promise<R>,
): Promise<R> {
  let innerCalled = false;
  let innerFailed = false;
  const next = async (a: A): Promise<R> => {
    innerCalled = true;
    try {
      return await inner(a);
    } catch (err) {
      innerFailed = true;
      throw err;
    }
  };
  try {
    return await ring(next);
  } catch (err) {
    if (innerFailed || isAbortError(err)) throw err;
    report(hook, phase, err);
    if (innerCalled) throw err;
    return inner(arg);
  }
}


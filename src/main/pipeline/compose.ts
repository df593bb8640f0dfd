/**
 * Onion composition and failure reporting for the phase runner (run-phase.ts): wrap phases build an
 * onion with the first hook outermost; a hook that throws is isolated and reported, and the call
 * continues as if the hook were absent — except aborts, which always propagate.
 */
import { errorMessage } from '../errors.ts';
import { isAbortError } from '../abort.ts';
import type { Hook, RunContext } from './hook.ts';
import { phase, type PhaseName } from './phases.ts';

/**
 * Reports a hook failure where the user sees it: a `hook_error` trace event and an `on_hook_end`
 * event with ok:false on the hooks stream.
 */
export function reportHookFailure(
  ctx: RunContext,
  hook: string,
  phaseName: string,
  err: unknown,
  failed: 'open' | 'closed' = 'open',
): void {
  const message = errorMessage(err);
  ctx.trace?.recordEvent('hook_error', { hook, phase: phaseName, message: message.slice(0, 500) });
  ctx.emit({
    event: 'on_hook_end',
    data: { hook, event: phaseName, ok: false, reason: message, duration_ms: 0, failed },
  });
}

/** One ring of an onion: the hook's wrap method bound to the run. */
export type Ring<A, R> = (hook: Hook, arg: A, next: (arg: A) => Promise<R>) => Promise<R>;

/**
 * Builds the onion of a wrap phase around `terminal` from the hooks implementing the phase's method.
 * Contract: hooks[0] is outermost. A hook that throws before calling `next` is reported and skipped
 * (its inner chain runs instead) — or, when its fail mode is 'closed' and the phase can block,
 * answered by `blocked`; an error thrown by the inner chain itself propagates unchanged.
 */
export function composeOnion<A, R>(
  name: Extract<PhaseName, 'wrap_model_call' | 'wrap_tool_call'>,
  hooks: readonly Hook[],
  ctx: RunContext,
  terminal: (arg: A) => Promise<R>,
  ring: Ring<A, R>,
  blocked?: (hook: Hook, arg: A, reason: string) => R,
): (arg: A) => Promise<R> {
  const spec = phase(name);
  let fn = terminal;
  for (let i = hooks.length - 1; i >= 0; i--) {
    const hook = hooks[i];
    if (typeof hook[spec.method] !== 'function') continue;
    const inner = fn;
    fn = (arg) => isolate(ctx, hook, name, inner, arg, (next) => ring(hook, arg, next), blocked);
  }
  return fn;
}

/**
 * Runs one ring. Errors coming from `inner` (the rest of the chain) are rethrown as they are; an error
 * raised by the hook's own code is reported, and the call falls through to `inner` if the hook never
 * reached it (or is blocked when the hook fails closed).
 */
async function isolate<A, R>(
  ctx: RunContext,
  hook: Hook,
  name: PhaseName,
  inner: (arg: A) => Promise<R>,
  arg: A,
  run: (next: (arg: A) => Promise<R>) => Promise<R>,
  blocked?: (hook: Hook, arg: A, reason: string) => R,
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
    return await run(next);
  } catch (err) {
    if (innerFailed || isAbortError(err)) throw err;
    const closes = !innerCalled && blocked && hook.failMode === 'closed' && phase(name).failClosedBlocks;
    reportHookFailure(ctx, hook.name, name, err, closes ? 'closed' : 'open');
    if (innerCalled) throw err;
    if (closes) {
      return blocked(
        hook,
        arg,
        `hook failed (fail-closed): ${errorMessage(err)}`,
      );
    }
    return inner(arg);
  }
}

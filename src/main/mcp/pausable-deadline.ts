/**
 * A call's deadline that stops counting while the call waits on a person (an MCP server's request
 * for input): the time someone takes to fill a form is not the server's. Aborting `signal` aborts
 * the call, when the caller's signal aborts or the time runs out.
 */
export interface PausableDeadline {
  readonly signal: AbortSignal;
  pause(): void;
  resume(): void;
  /** Whether the time ran out (rather than the caller cancelling). */
  expired(): boolean;
  clear(): void;
}

export function pausableDeadline(ms: number, caller: AbortSignal): PausableDeadline {
  const controller = new AbortController();
  const onAbort = () => controller.abort(caller.reason);
  caller.addEventListener('abort', onAbort, { once: true });
  if (caller.aborted) onAbort();
  let left = ms;
  let startedAt = performance.now();
  let timer: NodeJS.Timeout | undefined;
  let paused = 0;
  let ranOut = false;
  const start = () => {
    startedAt = performance.now();
    timer = setTimeout(() => {
      ranOut = true;
      controller.abort(new Error(`timed out after ${ms} ms`));
    }, left);
  };
  start();
  return {
    signal: controller.signal,
    // Several requests may wait at once: the clock runs again when the last is answered.
    pause() {
      if (paused++ > 0) return;
      clearTimeout(timer);
      left -= performance.now() - startedAt;
    },
    resume() {
      if (--paused > 0 || ranOut) return;
      start();
    },
    expired: () => ranOut,
    clear() {
      clearTimeout(timer);
      caller.removeEventListener('abort', onAbort);
    },
  };
}

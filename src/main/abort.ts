/** Cancellation helpers: one shape of abort error, how to recognise it, and a sleep that honours a signal. */

/** True for the errors a cancelled operation rejects with (DOM `AbortError`, Node's `AbortSignalError`). */
export function isAbortError(err: unknown): err is Error {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'AbortSignalError');
}

/**
 * The error to reject with when `signal` aborted.
 * Contract: the signal's own reason when that is an abort error, else a new Error named 'AbortError'.
 */
export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (isAbortError(reason)) return reason;
  const err = new Error('cancelled');
  err.name = 'AbortError';
  return err;
}

/** Waits `ms`. Contract: rejects with `abortError(signal)` as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Backoff and `Retry-After` parsing for the model client's own retries. */

/** Parameters of `backoffDelay`. */
export interface BackoffOptions {
  baseMs: number;
  capMs: number;
  /** Returns a number in [0, 1); injectable so tests are deterministic. */
  random?: () => number;
}

/** Exponential backoff with jitter: base × 2^attempt capped, then scaled into [50 %, 100 %]. */
export function backoffDelay(attempt: number, opts: BackoffOptions): number {
  const raw = Math.min(opts.capMs, opts.baseMs * 2 ** attempt);
  const r = (opts.random ?? Math.random)();
  return Math.round(raw * (0.5 + r / 2));
}

/**
 * Reads `retry-after-ms` or `Retry-After` (seconds or an HTTP date) from response headers.
 * Contract: `undefined` when absent or unparsable; never negative.
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)))
    return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

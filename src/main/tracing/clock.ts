/**
 * Span clock: epoch milliseconds with microsecond precision. performance.timeOrigin + now() is
 * monotonic within the process (unlike Date.now deltas); rounding to whole microseconds keeps the
 * ms ↔ ns conversion of the exporters exact in both directions.
 */
import { performance } from 'node:perf_hooks';

/** Rounds epoch ms to whole microseconds. */
export function roundToMicros(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** Current time in epoch ms (µs precision). */
export function spanNow(): number {
  return roundToMicros(performance.timeOrigin + performance.now());
}

/** Epoch ms → OTLP nanoseconds as a decimal string. Contract: exact for µs-rounded input. */
export function msToNanoString(ms: number): string {
  return (BigInt(Math.round(ms * 1000)) * 1000n).toString();
}

/** OTLP nanoseconds (decimal string or number) → epoch ms, rounded to µs. Throws on a non-integer. */
export function nanoToMs(nanos: string | number): number {
  const n = BigInt(typeof nanos === 'number' ? Math.round(nanos) : nanos.trim());
  // Round half up to the microsecond; Number(µs) is exact below 2^53 µs (year 2255).
  const micros = (n + 500n) / 1000n;
  return Number(micros) / 1000;
}

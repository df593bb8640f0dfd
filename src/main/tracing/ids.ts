/** Trace and span ids as OTLP wants them: lowercase hex, 32 and 16 chars, never all zeros. */
import { randomBytes } from 'node:crypto';

const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** A random 128-bit trace id (32 lowercase hex). */
export function newTraceId(): string {
  const id = randomBytes(16).toString('hex');
  // An all-zero id is invalid in OTel; the odds are negligible but the retry is free.
  return id === ZERO_TRACE ? newTraceId() : id;
}

/** A random 64-bit span id (16 lowercase hex). */
export function newSpanId(): string {
  const id = randomBytes(8).toString('hex');
  return id === ZERO_SPAN ? newSpanId() : id;
}

/** True when `id` is `length` lowercase hex chars and not all zeros. */
export function isHexId(id: unknown, length: 32 | 16): id is string {
  return typeof id === 'string' && id.length === length && /^[0-9a-f]+$/.test(id) && !/^0+$/.test(id);
}

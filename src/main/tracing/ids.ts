/**
 * Trace and span ids as OTLP wants them: lowercase hex, 32 and 16 chars, never all zeros. They name
 * spans, they guard nothing: drawn from Math.random (seeded from the OS per process, as the
 * OpenTelemetry JS SDK draws them), not from OpenSSL, whose generator reseeds after every fork — a
 * spawned hook made the next span id cost 40 µs instead of 1.
 */
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** 8 random lowercase hex digits. */
function hex32(): string {
  return Math.floor(Math.random() * 0x1_0000_0000)
    .toString(16)
    .padStart(8, '0');
}

/** A random 128-bit trace id (32 lowercase hex). */
export function newTraceId(): string {
  const id = hex32() + hex32() + hex32() + hex32();
  // An all-zero id is invalid in OTel; the odds are negligible but the retry is free.
  return id === ZERO_TRACE ? newTraceId() : id;
}

/** A random 64-bit span id (16 lowercase hex). */
export function newSpanId(): string {
  const id = hex32() + hex32();
  return id === ZERO_SPAN ? newSpanId() : id;
}

/** True when `id` is `length` lowercase hex chars and not all zeros. */
export function isHexId(id: unknown, length: 32 | 16): id is string {
  return (
    typeof id === 'string' && id.length === length && /^[0-9a-f]+$/.test(id) && !/^0+$/.test(id)
  );
}

import { describe, expect, it } from 'vitest';
import { isHexId, newSpanId, newTraceId } from '../../../src/main/tracing/ids.ts';

describe('trace and span ids', () => {
  it('are lowercase hex of OTLP lengths, never all zeros, and do not repeat', () => {
    const spans = Array.from({ length: 20_000 }, newSpanId);
    const traces = Array.from({ length: 5_000 }, newTraceId);
    expect(spans.every((id) => isHexId(id, 16))).toBe(true);
    expect(traces.every((id) => isHexId(id, 32))).toBe(true);
    expect(new Set(spans).size).toBe(spans.length);
    expect(new Set(traces).size).toBe(traces.length);
    // Every hex digit turns up in every position: no position is stuck.
    for (let at = 0; at < 16; at++) expect(new Set(spans.map((id) => id[at])).size).toBe(16);
  });
});

import { describe, expect, it } from 'vitest';
import { sleep } from '../../../src/main/abort.ts';
import { backoffDelay, parseRetryAfter } from '../../../src/main/llm/retry.ts';

const h = (map: Record<string, string>) => ({ get: (k: string) => map[k] ?? null });

describe('backoffDelay', () => {
  it('doubles from the base, caps, and applies jitter in [50 %, 100 %]', () => {
    const o = { baseMs: 500, capMs: 8000 };
    expect(backoffDelay(0, { ...o, random: () => 0.999999 })).toBe(500);
    expect(backoffDelay(3, { ...o, random: () => 0.999999 })).toBe(4000);
    expect(backoffDelay(10, { ...o, random: () => 0.999999 })).toBe(8000);
    expect(backoffDelay(1, { ...o, random: () => 0 })).toBe(500);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds, retry-after-ms and HTTP dates', () => {
    expect(parseRetryAfter(h({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(h({ 'retry-after-ms': '150', 'retry-after': '9' }))).toBe(150);
    const now = Date.parse('Sun, 22 Nov 2026 05:00:00 GMT');
    expect(parseRetryAfter(h({ 'retry-after': 'Sun, 22 Nov 2026 05:00:07 GMT' }), now)).toBe(7000);
    expect(parseRetryAfter(h({ 'retry-after': 'Sun, 22 Nov 2026 04:00:00 GMT' }), now)).toBe(0);
  });
  it('is undefined when absent or garbage', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter(h({}))).toBeUndefined();
    expect(parseRetryAfter(h({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});

describe('sleep', () => {
  it('rejects with AbortError when aborted', async () => {
    const ctrl = new AbortController();
    const p = sleep(60_000, ctrl.signal);
    ctrl.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});

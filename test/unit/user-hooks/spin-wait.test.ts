import { describe, expect, it } from 'vitest';
import { spinWhile } from '../../../src/main/user-hooks/spin-wait.ts';

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls of `waiting` keep growing while the loop polls; this says whether they stopped. */
async function stopped(count: () => number): Promise<boolean> {
  await settle(40);
  const before = count();
  await settle(40);
  return count() === before;
}

describe('polling the event loop while an answer is awaited', () => {
  it('stops as soon as nothing is awaited, and lets timers run meanwhile', async () => {
    let asked = 0;
    let waiting = true;
    spinWhile(() => (asked++, waiting), 60_000);
    // Were timers starved by the polling, this would never run and the polling would go on.
    setTimeout(() => (waiting = false), 1);
    expect(await stopped(() => asked)).toBe(true);
    expect(asked).toBeGreaterThan(1);
  });

  it('gives up after its time', async () => {
    let asked = 0;
    spinWhile(() => (asked++, true), 5);
    expect(await stopped(() => asked)).toBe(true);
    expect(asked).toBeGreaterThan(1);
  });
});

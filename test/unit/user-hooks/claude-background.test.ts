/** Background handlers of one run: a bounded number at once, the rest in turn; a forgotten run starts no more. */
import { describe, expect, it } from 'vitest';
import { createBackgroundHooks } from '../../../src/main/user-hooks/claude-background.ts';
import type { ClaudeOutcome } from '../../../src/main/user-hooks/claude-hooks.ts';

/** A handler whose outcome arrives when the test says so, counting how many run at once. */
function jobs() {
  let running = 0;
  let most = 0;
  let started = 0;
  const finishers: Array<() => void> = [];
  const start = () =>
    new Promise<ClaudeOutcome>((resolve) => {
      started++;
      most = Math.max(most, ++running);
      finishers.push(() => {
        running--;
        resolve({ handler: {} as ClaudeOutcome['handler'], verdict: {} });
      });
    });
  const finishAll = async () => {
    while (finishers.length) {
      finishers.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { start, finishAll, stats: () => ({ started, most }) };
}

describe('background Claude Code handlers', () => {
  it('run eight at a time per run, the others when a slot frees, and the end waits for all', async () => {
    const bg = createBackgroundHooks();
    const j = jobs();
    let reported = 0;
    for (let i = 0; i < 30; i++) bg.track('run_1', j.start, () => void reported++);
    await new Promise((r) => setImmediate(r));
    expect(j.stats()).toEqual({ started: 8, most: 8 });
    const settled = bg.settle('run_1', 5_000);
    await j.finishAll();
    expect(await settled).toBe(0);
    expect(j.stats()).toEqual({ started: 30, most: 8 });
    expect(reported).toBe(30);
  });

  it('gives up waiting at the cap, and a forgotten run starts none of its waiting handlers', async () => {
    const bg = createBackgroundHooks();
    const j = jobs();
    for (let i = 0; i < 10; i++) bg.track('run_1', j.start, () => {});
    expect(await bg.settle('run_1', 20)).toBe(10);
    bg.forget('run_1');
    bg.addContext('run_1', 'too late');
    await j.finishAll();
    expect(j.stats().started).toBe(8);
    expect(bg.contextOf('run_1')).toEqual([]);
  });
});

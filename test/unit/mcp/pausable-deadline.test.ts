import { describe, expect, it } from 'vitest';
import { pausableDeadline } from '../../../src/main/mcp/pausable-deadline.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a deadline that stops while a person answers', () => {
  it('runs out after its time, not counting the pauses; two waits at once count as one', async () => {
    const d = pausableDeadline(150, new AbortController().signal);
    await wait(50);
    d.pause();
    d.pause();
    await wait(300);
    d.resume();
    expect(d.signal.aborted).toBe(false);
    d.resume();
    await wait(50);
    expect(d.signal.aborted).toBe(false);
    await wait(150);
    expect(d.signal.aborted).toBe(true);
    expect(d.expired()).toBe(true);
    d.clear();
  });

  it("aborts with the caller's cancel, which is not running out", () => {
    const caller = new AbortController();
    const d = pausableDeadline(10_000, caller.signal);
    caller.abort();
    expect(d.signal.aborted).toBe(true);
    expect(d.expired()).toBe(false);
    d.clear();
  });
});

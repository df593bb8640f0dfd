import { describe, expect, it } from 'vitest';
import { runAgentLoop } from '../../../src/main/agent/loop.ts';
import { createPipeline } from '../../../src/main/pipeline/run-phase.ts';
import { DEFAULT_SETTINGS } from '../../../src/shared/types/index.ts';
import { harness, scriptedLlm, testTool } from './loop-harness.ts';

/** A slow tool that records how many of its calls run at the same time. */
function slowTool() {
  const seen = { running: 0, max: 0 };
  const tool = testTool('slow', 'read', async (args) => {
    seen.running++;
    seen.max = Math.max(seen.max, seen.running);
    // Later calls finish first, so call order is not finish order.
    await new Promise((r) => setTimeout(r, 40 - Number(args.value)));
    seen.running--;
    return `result ${String(args.value)}`;
  });
  return { tool, seen };
}

async function runThirtyCalls(settings = DEFAULT_SETTINGS) {
  const { tool, seen } = slowTool();
  const calls = Array.from({ length: 30 }, (_, i) => ({
    id: `c${i}`,
    name: 'slow',
    args: { value: String(i) },
  }));
  const h = harness(scriptedLlm([{ tool_calls: calls }, { content: 'done' }]), [tool], {
    settings,
  });
  const summary = await runAgentLoop({
    ctx: h.ctx,
    pipeline: createPipeline([h.toolHook]),
    maxIterations: 5,
    append: h.append,
    replaceMessages: h.replace,
  });
  const results = h.state.messages.filter((m) => m.role === 'tool');
  return { summary, seen, results, h };
}

describe('bounded tool concurrency', () => {
  it('runs at most max_parallel_tools calls of a turn at once and keeps call order', async () => {
    const { summary, seen, results } = await runThirtyCalls({
      ...DEFAULT_SETTINGS,
      max_parallel_tools: 4,
    });
    expect(summary.stop_reason).toBe('completed');
    expect(seen.max).toBe(4);
    expect(results.map((m) => m.tool_call_id)).toEqual(
      Array.from({ length: 30 }, (_, i) => `c${i}`),
    );
    expect(results.map((m) => m.content)).toEqual(
      Array.from({ length: 30 }, (_, i) => `result ${i}`),
    );
  });

  it('defaults to 8 at once', async () => {
    const { seen, results } = await runThirtyCalls();
    expect(seen.max).toBe(8);
    expect(results).toHaveLength(30);
  });

  it('a cancel answers the queued calls without starting them', async () => {
    let started = 0;
    let cancel = () => {};
    const hang = testTool('hang', 'read', (_args, signal) => {
      const stopped = new Promise<string>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
      );
      if (++started === 2) cancel();
      return stopped;
    });
    const calls = Array.from({ length: 10 }, (_, i) => ({ id: `c${i}`, name: 'hang', args: {} }));
    const h = harness(scriptedLlm([{ tool_calls: calls }]), [hang], {
      settings: { ...DEFAULT_SETTINGS, max_parallel_tools: 2 },
    });
    cancel = () => h.controller.abort();
    const summary = await runAgentLoop({
      ctx: h.ctx,
      pipeline: createPipeline([h.toolHook]),
      maxIterations: 5,
      append: h.append,
      replaceMessages: h.replace,
    });
    expect(summary.stop_reason).toBe('cancelled');
    expect(started).toBe(2);
    const answers = h.state.messages.filter((m) => m.role === 'tool');
    expect(answers).toHaveLength(10);
    expect(answers.every((m) => m.status === 'cancelled')).toBe(true);
  });
});

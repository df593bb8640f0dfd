/** Tool error kinds and retries: what each kind does to a call, the policy from agent.yaml, the trace. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dispatchToolCall } from '../../../src/main/agent/tool-dispatch.ts';
import {
  backoffDelay,
  retryPolicy,
  type RetryNotice,
  type RetryRules,
} from '../../../src/main/agent/tool-retry.ts';
import { ToolRegistry } from '../../../src/main/tools/registry.ts';
import {
  defineTool,
  ToolError,
  type Tool,
  type ToolContext,
} from '../../../src/main/tools/types.ts';
import { parseAgentProfile } from '../../../src/main/agents/profile.ts';
import type { TraceRecorder, SpanHandle } from '../../../src/main/tracing/types.ts';

/** A tool that throws the given errors in turn, then answers 'ok'. */
function scripted(name: string, errors: Error[]): Tool & { calls: number } {
  const tool = {
    calls: 0,
    ...defineTool({
      name,
      description: 'test',
      parameters: z.object({}),
      effects: () => ({}),
      async execute() {
        const err = errors[tool.calls++];
        if (err) throw err;
        return 'ok';
      },
    }),
  };
  return tool;
}

function traceLog(): { trace: TraceRecorder; events: Array<{ name: string; attrs: unknown }> } {
  const events: Array<{ name: string; attrs: unknown }> = [];
  const span = {
    addEvent(name: string, attrs: unknown) {
      events.push({ name, attrs });
      return span;
    },
  } as unknown as SpanHandle;
  const trace = { currentSpan: () => span } as unknown as TraceRecorder;
  return { trace, events };
}

async function dispatch(tool: Tool, retries?: RetryRules) {
  const tools = new ToolRegistry();
  tools.register(tool);
  const { trace, events } = traceLog();
  const notices: RetryNotice[] = [];
  const result = await dispatchToolCall(
    { id: 'c1', name: tool.name, args: {} },
    {
      tools,
      retries,
      trace,
      backoffMs: () => 0,
      onRetry: (_call, r) => notices.push(r),
      context: () =>
        ({ callId: 'c1', signal: new AbortController().signal }) as unknown as ToolContext,
    },
  );
  return { result, events, notices };
}

const three: RetryRules = { t: { max_attempts: 3 } };

describe('tool error kinds', () => {
  it('by default a failed call is tried once, as before', async () => {
    const tool = scripted('t', [new Error('boom')]);
    const { result } = await dispatch(tool);
    expect(result).toMatchObject({ status: 'error', error: 'boom' });
    expect(result.attempts).toBeUndefined();
    expect(tool.calls).toBe(1);
  });

  it('retryable: retried up to max_attempts; the result says which attempt succeeded', async () => {
    const tool = scripted('t', [new ToolError('flaky'), new Error('flaky again')]);
    const { result, events, notices } = await dispatch(tool, three);
    expect(result).toMatchObject({ status: 'ok', output: 'ok', attempts: { n: 3, max: 3 } });
    expect(notices.map((r) => [r.attempt, r.maxAttempts, r.kind, r.error])).toEqual([
      [2, 3, 'retryable', 'flaky'],
      [3, 3, 'retryable', 'flaky again'],
    ]);
    expect(events.filter((e) => e.name === 'tool_attempt_failed')).toHaveLength(2);
    expect(events.filter((e) => e.name === 'tool_retry')).toHaveLength(2);
  });

  it('retryable: gives up after max_attempts and says how many were made', async () => {
    const tool = scripted('t', [new Error('a'), new Error('b'), new Error('c'), new Error('d')]);
    const { result } = await dispatch(tool, three);
    expect(result).toMatchObject({
      status: 'error',
      error: 'c (after 3 attempts)',
      attempts: { n: 3, max: 3 },
    });
    expect(tool.calls).toBe(3);
  });

  it('cancel and discard stop at once, whatever max_attempts allows', async () => {
    for (const kind of ['cancel', 'discard'] as const) {
      const tool = scripted('t', [new ToolError(`no (${kind})`, kind)]);
      const { result } = await dispatch(tool, three);
      expect(result).toMatchObject({
        status: 'error',
        error: `no (${kind})`,
        attempts: { n: 1, max: 3 },
      });
      expect(tool.calls).toBe(1);
    }
  });

  it('snooze waits and retries without using an attempt', async () => {
    const tool = scripted('t', [
      new ToolError('later', 'snooze', 5),
      new ToolError('later', 'snooze', 5),
    ]);
    const started = Date.now();
    const { result, notices } = await dispatch(tool);
    expect(result).toMatchObject({ status: 'ok', output: 'ok' });
    expect(tool.calls).toBe(3);
    expect(notices.map((r) => [r.attempt, r.kind, r.delayMs])).toEqual([
      [1, 'snooze', 5],
      [1, 'snooze', 5],
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(9);
  });

  it('a wait the tool asks for (Retry-After) replaces the backoff', async () => {
    const tool = scripted('t', [new ToolError('busy', 'retryable', 30)]);
    const started = Date.now();
    const { result } = await dispatch(tool, { t: { max_attempts: 2 } });
    expect(result.status).toBe('ok');
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });
});

describe('retry policy', () => {
  const tool = (name: string, maxAttempts?: number) =>
    ({ ...scripted(name, []), maxAttempts }) as Tool;

  it('reads agent.yaml: exact names first, then the longest prefix pattern', () => {
    const { profile, diagnostics } = parseAgentProfile(
      [
        'retries:',
        '  "mcp__*": { max_attempts: 2 }',
        '  "mcp__github__*": { max_attempts: 4, backoff: { initial_ms: 100, max_ms: 400 }, jitter: 0.5 }',
        '  deploy: { max_attempts: 5, backoff: 250, jitter: true }',
      ].join('\n'),
      'agent.yaml',
      '/ws',
    );
    expect(diagnostics).toEqual([]);
    expect(retryPolicy(profile.retries, tool('mcp__github__issue')).maxAttempts).toBe(4);
    expect(retryPolicy(profile.retries, tool('mcp__other__x')).maxAttempts).toBe(2);
    expect(retryPolicy(profile.retries, tool('deploy'))).toEqual({
      maxAttempts: 5,
      backoff: { initialMs: 250, maxMs: 8000, multiplier: 2 },
      jitter: 0.5,
    });
    expect(retryPolicy(profile.retries, tool('read_file', 2)).maxAttempts).toBe(2);
    expect(retryPolicy(undefined, tool('read_file')).maxAttempts).toBe(1);
  });

  it('a bad retries entry is reported with its line and ignored', () => {
    const { profile, diagnostics } = parseAgentProfile(
      'retries:\n  t: { max_attempts: 0 }\n',
      'agent.yaml',
      '/ws',
    );
    expect(profile.retries).toBeUndefined();
    expect(diagnostics[0]).toMatch(/agent\.yaml:2: retries\.t\.max_attempts/);
  });

  it('backoff grows to its cap; jitter only shortens a delay', () => {
    const policy = retryPolicy(
      { t: { max_attempts: 9, backoff: { initial_ms: 100, max_ms: 400 }, jitter: 0.5 } },
      tool('t'),
    );
    expect([1, 2, 3, 4].map((n) => backoffDelay(policy, n, () => 0))).toEqual([100, 200, 400, 400]);
    expect(backoffDelay(policy, 1, () => 1)).toBe(50);
  });
});

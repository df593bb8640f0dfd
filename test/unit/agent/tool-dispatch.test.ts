import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { dispatchToolCall } from '../../../src/main/agent/tool-dispatch.ts';
import { ToolRegistry } from '../../../src/main/tools/registry.ts';
import {
  ToolError,
  defineTool,
  type ToolContext,
  type ToolOutput,
} from '../../../src/main/tools/types.ts';
import type { Workspace } from '../../../src/main/tools/workspace.ts';

function setup(run: (args: { n: number; label: string }) => Promise<string | ToolOutput>) {
  const seen: unknown[] = [];
  const tools = new ToolRegistry();
  tools.register(
    defineTool({
      name: 'count',
      description: 'test',
      parameters: z.object({ n: z.number().int(), label: z.string().default('none') }),
      effects: () => ({}),
      async execute(args) {
        seen.push(args);
        return run(args);
      },
    }),
  );
  const ctx = (): ToolContext => ({
    callId: 'c',
    workspace: { root: '/ws', extraRoots: [], programs: () => [] } as unknown as Workspace,
    signal: new AbortController().signal,
    state: { thread_id: 't', messages: [], todos: [], files: {} },
  });
  const call = (
    args: Record<string, unknown>,
    name = 'count',
    invalidArgs?: Record<string, string>,
  ) => dispatchToolCall({ id: 'c1', name, args }, { tools, context: ctx, invalidArgs });
  return { call, seen };
}

describe('dispatchToolCall', () => {
  it('hands the tool its parsed arguments (defaults filled in) and marks a plain return ok', async () => {
    const { call, seen } = setup(async (a) => `n=${a.n}`);
    expect(await call({ n: 2 })).toEqual({
      tool_call_id: 'c1',
      name: 'count',
      output: 'n=2',
      status: 'ok',
    });
    expect(seen).toEqual([{ n: 2, label: 'none' }]);
  });

  it('refuses unknown tools, invalid arguments and unparsable JSON as errors without running anything', async () => {
    const { call, seen } = setup(async () => 'ran');
    expect(await call({ n: 'two' })).toMatchObject({
      status: 'error',
      error: expect.stringMatching(/^invalid arguments for count: n: /),
    });
    expect(await call({}, 'nope')).toMatchObject({
      status: 'error',
      error: expect.stringMatching(/unknown tool "nope"/),
    });
    expect(await call({}, 'count', { c1: 'Unexpected end' })).toMatchObject({
      status: 'error',
      error: expect.stringMatching(/invalid JSON/),
    });
    expect(seen).toEqual([]);
  });

  it('keeps the status a tool reports, and turns a thrown error into an error result', async () => {
    expect(
      await setup(async () => ({
        content: 'partial\n\ntimed out after 1s',
        status: 'timeout',
      })).call({ n: 1 }),
    ).toMatchObject({ status: 'timeout', output: 'partial\n\ntimed out after 1s' });
    expect(
      await setup(async () => ({ content: 'cancelled', status: 'cancelled' })).call({ n: 1 }),
    ).toMatchObject({ status: 'cancelled' });
    const failing = setup(async () => {
      throw new ToolError('EACCES: permission denied, open locked.txt', 'cancel');
    });
    expect(await failing.call({ n: 1 })).toMatchObject({
      status: 'error',
      error: 'EACCES: permission denied, open locked.txt',
    });
  });
});

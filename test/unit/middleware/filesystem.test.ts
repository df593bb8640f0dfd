import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunContext } from '../../../src/main/pipeline/hook.ts';
import { defaultAgentProfile } from '../../../src/main/agents/profile.ts';
import { createFilesystemHook, evict } from '../../../src/main/middleware/filesystem.ts';
import { ToolRegistry } from '../../../src/main/tools/registry.ts';
import { DEFAULT_SETTINGS, type AgentState, type ToolResult } from '../../../src/shared/types/index.ts';
import { tempWorkspace, type TempWorkspace } from '../tools/helpers.ts';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
});
afterEach(() => t.cleanup());

function runContext(): RunContext {
  const state: AgentState = { thread_id: 'th', messages: [], todos: [], files: {} };
  return {
    threadId: 'th',
    runId: 'run',
    workspace: t.ws,
    home: t.base,
    model: 'm',
    llm: {} as RunContext['llm'],
    settings: DEFAULT_SETTINGS,
    profile: defaultAgentProfile(t.ws.root),
    signal: t.controller.signal,
    state,
    tools: new ToolRegistry(),
    trusted: true,
    emit: () => undefined,
    recordFile: (p, c) => (state.files[p] = c),
    setTodos: (todos) => (state.todos = todos),
  };
}

const result = (name: string, output: string): ToolResult => ({ tool_call_id: 'c1', name, output, status: 'ok' });

describe('FilesystemHook', () => {
  it('registers the seven tools and records written files', async () => {
    const ctx = runContext();
    const hook = createFilesystemHook();
    expect(hook).toMatchObject({ name: 'filesystem', source: 'builtin' });
    await hook.beforeAgent!(ctx, ctx.state);
    expect(ctx.tools.list().map((x) => x.name)).toEqual(['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep', 'execute']);
    const toolCtx = { callId: 'c', workspace: t.ws, signal: ctx.signal, state: ctx.state };
    await ctx.tools.get('write_file')!.execute({ path: 'a/b.txt', content: 'one two' }, toolCtx);
    await ctx.tools.get('edit_file')!.execute({ path: 'a/b.txt', old_text: 'two', new_text: '2' }, toolCtx);
    expect(ctx.state.files).toEqual({ 'a/b.txt': 'one 2' });
    expect(await fs.readFile(path.join(t.root, 'a/b.txt'), 'utf8')).toBe('one 2');
    expect(ctx.tools.schemas().find((s) => s.name === 'ls')!.parameters).toMatchObject({ type: 'object' });
  });

  it('evicts large results of non-excluded tools to head and tail', async () => {
    const hook = createFilesystemHook();
    const big = 'a'.repeat(2000) + 'm'.repeat(80_000) + 'z'.repeat(2000);
    const out = await hook.wrapToolCall!(runContext(), { id: 'c1', name: 'execute', args: {} }, async () => result('execute', big));
    expect(out.output).toBe(`${'a'.repeat(2000)}\n\n... (truncated 80000 characters) ...\n\n${'z'.repeat(2000)}`);
    expect(evict(big)).toBe(out.output);
  });

  it('keeps results at the limit and results of tools that cap their own output', async () => {
    const hook = createFilesystemHook();
    const ctx = runContext();
    await hook.beforeAgent!(ctx, ctx.state);
    const exact = 'x'.repeat(80_000);
    const kept = await hook.wrapToolCall!(ctx, { id: 'c1', name: 'custom', args: {} }, async () => result('custom', exact));
    expect(kept.output).toBe(exact);
    for (const name of ['ls', 'glob', 'grep', 'read_file', 'edit_file', 'write_file']) {
      const big = 'y'.repeat(100_000);
      const r = await hook.wrapToolCall!(ctx, { id: 'c1', name, args: {} }, async () => result(name, big));
      expect(r.output).toBe(big);
    }
    const command = await hook.wrapToolCall!(ctx, { id: 'c1', name: 'execute', args: {} }, async () => result('execute', 'y'.repeat(100_000)));
    expect(command.output).toContain('... (truncated 96000 characters) ...');
  });
});

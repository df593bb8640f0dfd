import { describe, expect, it } from 'vitest';
import type { RunContext } from '../../../src/main/pipeline/hook.ts';
import { createTodoListHook } from '../../../src/main/middleware/todos.ts';
import { ToolRegistry } from '../../../src/main/tools/registry.ts';
import type { ToolContext } from '../../../src/main/tools/types.ts';
import type { AgentState, Todo } from '../../../src/shared/types/index.ts';

async function setup() {
  const state: AgentState = { thread_id: 'th', messages: [], todos: [], files: {} };
  const calls: Todo[][] = [];
  const ctx = {
    tools: new ToolRegistry(),
    state,
    setTodos: (todos: Todo[]) => {
      calls.push(todos);
      state.todos = todos;
    },
  } as unknown as RunContext;
  const hook = createTodoListHook();
  await hook.beforeAgent!(ctx, state);
  const tool = ctx.tools.get('write_todos')!;
  const toolCtx = { callId: 'c', signal: new AbortController().signal, state } as unknown as ToolContext;
  const call = async (args: Record<string, unknown>) => {
    const parsed = tool.parameters.safeParse(args);
    try {
      return { ok: true, text: await tool.execute(args, toolCtx), schemaOk: parsed.success };
    } catch (err) {
      return { ok: false, text: (err as Error).message, schemaOk: parsed.success };
    }
  };
  return { hook, state, calls, tool, call };
}

describe('TodoListHook', () => {
  it('registers write_todos (no workspace effects, so never asked about) and replaces the list', async () => {
    const { hook, tool, call, state, calls } = await setup();
    expect(hook).toMatchObject({ name: 'todolist', source: 'builtin' });
    expect(tool.effects({ todos: [] })).toEqual({});
    const todos = [
      { id: '1', title: 'Parse config file', status: 'done' },
      { id: '2', title: 'Implement handler', status: 'in_progress' },
      { id: '3', title: 'Write tests', status: 'pending' },
    ];
    expect(await call({ todos })).toEqual({ ok: true, text: 'Todos updated: 1 done, 1 in progress, 1 pending', schemaOk: true });
    expect(state.todos).toEqual(todos);
    expect(await call({ todos: [{ id: 7, title: 'numeric id', status: 'pending' }] })).toMatchObject({ ok: true });
    expect(state.todos).toEqual([{ id: '7', title: 'numeric id', status: 'pending' }]);
    expect(await call({ todos: [] })).toMatchObject({ ok: true, text: 'Todos cleared' });
    expect(calls).toHaveLength(3);
  });

  it('rejects bad statuses, missing fields and duplicate ids with clear errors', async () => {
    const { call, state } = await setup();
    const bad = await call({ todos: [{ id: '1', title: 'x', status: 'completed' }] });
    expect(bad).toEqual({ ok: false, text: 'todos[0].status "completed" is not allowed; use one of: pending, in_progress, done', schemaOk: false });
    expect((await call({ todos: [{ title: 'x', status: 'done' }] })).text).toBe('todos[0].id is missing');
    expect((await call({ todos: [{ id: '1', title: '', status: 'done' }] })).text).toBe('todos[0].title is missing');
    expect(
      (await call({ todos: [{ id: '1', title: 'a', status: 'done' }, { id: '1', title: 'b', status: 'pending' }] })).text,
    ).toBe('duplicate todo id "1"; ids must be unique');
    expect((await call({ todos: 'nope' })).text).toMatch(/todos must be an array/);
    expect(state.todos).toEqual([]);
  });

  it('keeps an existing list and initialises a missing one', async () => {
    const state = { thread_id: 'th', messages: [], files: {} } as unknown as AgentState;
    const ctx = { tools: new ToolRegistry(), state, setTodos: () => undefined } as unknown as RunContext;
    await createTodoListHook().beforeAgent!(ctx, state);
    expect(state.todos).toEqual([]);
  });
});

/** The todo-list middleware: registers `write_todos`, which replaces the run's todo list. */
import type { Hook, MiddlewareInfo } from '../pipeline/hook.ts';
import { createWriteTodosTool } from '../tools/write-todos.ts';

export const todoListInfo: MiddlewareInfo = {
  name: 'todolist',
  description: 'Gives the agent the write_todos tool',
  phases: ['before_agent'],
};

/** Creates the todo-list hook. Contract: only `beforeAgent`; an existing list is kept, a missing one becomes []. */
export function createTodoListHook(): Hook {
  return {
    name: todoListInfo.name,
    source: 'builtin',
    description: todoListInfo.description,
    async beforeAgent(ctx, state) {
      state.todos ??= [];
      ctx.tools.register(createWriteTodosTool((todos) => ctx.setTodos(todos)));
    },
  };
}

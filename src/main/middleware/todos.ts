/** TodoListHook (seed 000 §6.5): registers `write_todos`, which replaces the run's todo list. */
import type { Hook } from '../pipeline/hook.ts';
import { createWriteTodosTool } from '../tools/write-todos.ts';

/** Creates the todo-list hook. Contract: only `beforeAgent`; an existing list is kept, a missing one becomes []. */
export function createTodoListHook(): Hook {
  return {
    name: 'todolist',
    source: 'builtin',
    async beforeAgent(ctx, state) {
      state.todos ??= [];
      ctx.tools.register(createWriteTodosTool((todos) => ctx.setTodos(todos)));
    },
  };
}

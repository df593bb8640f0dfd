/**
 * Claude Code's TaskCreated and TaskCompleted on the workbench's todo list. `write_todos` (Claude's
 * TodoWrite) replaces the whole list, so a call is read as the tasks it adds and the tasks it marks
 * done, each told to the handlers on its own. A handler may refuse one: a refused new task is left
 * out of the list, a refused completion keeps the task's earlier status, and the reasons reach the
 * model with the call's result (docs/hooks.md).
 */
import type { Todo } from '../../shared/types/index.ts';
import { validateTodos } from '../tools/write-todos.ts';

export type TaskEvent = 'TaskCreated' | 'TaskCompleted';

/** What the handlers of one task event decided. */
export interface TaskVerdict {
  /** A block (exit 2, `decision: "block"`): this change is not made. */
  refused?: { by: string; reason: string };
  /** `continue: false`: the whole call is refused and the run ends. */
  halt?: { by: string; reason: string };
  /** `additionalContext` for the model. */
  context: string[];
}

export interface TaskReview {
  /** The list to write, when a handler refused part of the call's. */
  todos?: Todo[];
  /** The handler that refused (the first), when `todos` is set. */
  by?: string;
  /** For the model: each refusal with its reason, then the handlers' context. */
  feedback: string[];
  halt?: { by: string; reason: string; event: TaskEvent };
}

/** The input fields of a task event (Claude's tasks have a description; a todo has only its title). */
export const taskFields = (todo: Todo) => ({
  task_id: todo.id,
  task_subject: todo.title,
  task_description: '',
});

/**
 * Tells `decide` about each task the new list adds (TaskCreated) and each it marks done that was not
 * (TaskCompleted), in list order, one task at a time, and applies their refusals. A list the tool
 * would refuse anyway is not reviewed: the tool's own error explains it.
 */
export async function reviewTasks(
  before: readonly Todo[],
  args: Readonly<Record<string, unknown>>,
  decide: (event: TaskEvent, todo: Todo) => Promise<TaskVerdict>,
): Promise<TaskReview> {
  let after: Todo[];
  try {
    after = validateTodos(args.todos);
  } catch {
    return { feedback: [] };
  }
  const earlier = new Map(before.map((t) => [t.id, t]));
  const kept: Todo[] = [];
  const refusals: string[] = [];
  const context: string[] = [];
  let by: string | undefined;
  for (const todo of after) {
    const was = earlier.get(todo.id);
    const steps: TaskEvent[] = [];
    if (!was) steps.push('TaskCreated');
    if (todo.status === 'done' && was?.status !== 'done') steps.push('TaskCompleted');
    let status = todo.status;
    let dropped = false;
    for (const event of steps) {
      const verdict = await decide(event, todo);
      context.push(...verdict.context);
      if (verdict.halt) return { feedback: [], halt: { ...verdict.halt, event } };
      if (!verdict.refused) continue;
      by ??= verdict.refused.by;
      const what = event === 'TaskCreated' ? 'was not added' : 'was not marked done';
      refusals.push(`[hook ${verdict.refused.by}] task ${JSON.stringify(todo.title)} (${todo.id}) ${what}: ${verdict.refused.reason}`);
      if (event === 'TaskCreated') dropped = true;
      else status = was?.status ?? 'pending';
      break;
    }
    if (!dropped) kept.push(status === todo.status ? todo : { ...todo, status });
  }
  return {
    ...(refusals.length ? { todos: kept, by } : {}),
    feedback: [...refusals, ...context],
  };
}

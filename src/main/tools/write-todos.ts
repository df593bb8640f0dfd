/** The `write_todos` tool: replaces the agent's whole todo list. */
import { z } from 'zod';
import { TODO_STATUSES } from '../../shared/constants.ts';
import type { Todo, TodoStatus } from '../../shared/types/index.ts';
import { ToolError, defineTool, type Tool, type ToolDialect } from './types.ts';

const ALLOWED = TODO_STATUSES.join(', ');

const todoSchema = z.object({
  id: z.union([z.string(), z.number()]).describe('Stable id of the task'),
  title: z.string().describe('What the task is'),
  status: z.enum(TODO_STATUSES, { error: `status must be one of: ${ALLOWED}` }),
});
const params = z.object({ todos: z.array(todoSchema).describe('The complete new todo list') });

/**
 * Creates `write_todos`, which hands the validated list to `setTodos`.
 * Contract: an invalid list (bad status, missing id/title, duplicate ids) throws a ToolError naming the
 * problem and the allowed statuses; the list is then left unchanged.
 */
export function createWriteTodosTool(setTodos: (todos: Todo[]) => void): Tool {
  return defineTool({
    name: 'write_todos',
    description:
      `Replace your todo list with the complete new list. Each todo is {id, title, status}; status is one of ${ALLOWED}. ` +
      'Keep exactly one task in_progress while working.',
    parameters: params,
    // Changes only the run's own todo list, never the workspace.
    effects: () => ({}),
    dialects: { claude: TODO_WRITE },
    async execute(args) {
      const todos = validateTodos(args.todos);
      setTodos(todos);
      return summarize(todos);
    },
  });
}

/** Checks a model-given list item by item. Contract: throws ToolError with a clear message. */
export function validateTodos(input: unknown): Todo[] {
  if (!Array.isArray(input)) throw new ToolError('todos must be an array of {id, title, status}');
  const seen = new Set<string>();
  return input.map((item: unknown, i): Todo => {
    const where = `todos[${i}]`;
    if (typeof item !== 'object' || item === null)
      throw new ToolError(`${where} must be an object {id, title, status}`);
    const { id, title, status } = item as Record<string, unknown>;
    if ((typeof id !== 'string' && typeof id !== 'number') || String(id).trim() === '')
      throw new ToolError(`${where}.id is missing`);
    if (typeof title !== 'string' || title.trim() === '')
      throw new ToolError(`${where}.title is missing`);
    if (typeof status !== 'string' || !(TODO_STATUSES as readonly string[]).includes(status)) {
      throw new ToolError(
        `${where}.status ${JSON.stringify(status)} is not allowed; use one of: ${ALLOWED}`,
      );
    }
    const key = String(id);
    if (seen.has(key))
      throw new ToolError(`duplicate todo id ${JSON.stringify(key)}; ids must be unique`);
    seen.add(key);
    return { id: key, title, status: status as TodoStatus };
  });
}

/**
 * Claude Code's TodoWrite: `{todos: [{content, status, activeForm}]}` with `completed` for done. The
 * id is kept, so a hook's rewritten list still names the same tasks.
 */
const TODO_WRITE: ToolDialect = {
  name: 'TodoWrite',
  toInput: (input) => ({ ...input, todos: mapItems(input.todos, toClaudeTodo) }),
  fromInput: (input) => ({ ...input, todos: mapItems(input.todos, fromClaudeTodo) }),
};

function mapItems(
  todos: unknown,
  fn: (t: Record<string, unknown>) => Record<string, unknown>,
): unknown {
  if (!Array.isArray(todos)) return todos;
  return todos.map((t: unknown) =>
    typeof t === 'object' && t !== null ? fn(t as Record<string, unknown>) : t,
  );
}

function toClaudeTodo({
  title,
  status,
  ...rest
}: Record<string, unknown>): Record<string, unknown> {
  return {
    ...rest,
    content: title,
    status: status === 'done' ? 'completed' : status,
    activeForm: title,
  };
}

function fromClaudeTodo({
  content,
  status,
  activeForm: _a,
  ...rest
}: Record<string, unknown>): Record<string, unknown> {
  return { ...rest, title: content, status: status === 'completed' ? 'done' : status };
}

function summarize(todos: Todo[]): string {
  if (todos.length === 0) return 'Todos cleared';
  const count = (s: TodoStatus) => todos.filter((t) => t.status === s).length;
  return `Todos updated: ${count('done')} done, ${count('in_progress')} in progress, ${count('pending')} pending`;
}

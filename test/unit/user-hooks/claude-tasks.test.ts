/** Reading a `write_todos` call as Claude Code's task events, and its TodoWrite shape both ways. */
import { describe, expect, it } from 'vitest';
import type { Todo } from '../../../src/shared/types/index.ts';
import { createWriteTodosTool } from '../../../src/main/tools/write-todos.ts';
import { reviewTasks, type TaskEvent } from '../../../src/main/user-hooks/claude-tasks.ts';
import { fromClaudeInput, toClaudeInput } from '../../../src/main/user-hooks/claude-tools.ts';

const tool = createWriteTodosTool(() => {});
const tools = { get: (name: string) => (name === tool.name ? tool : undefined) };
const task = (id: string, title: string, status: Todo['status']): Todo => ({ id, title, status });

describe('reviewTasks', () => {
  it('keeps a new task pending when its completion is refused, and tells nothing about an invalid list', async () => {
    const told: [TaskEvent, string][] = [];
    const review = await reviewTasks([], { todos: [task('1', 'Ship it', 'done')] }, async (event, todo) => {
      told.push([event, todo.id]);
      return event === 'TaskCompleted' ? { refused: { by: 'gate', reason: 'tests fail' }, context: [] } : { context: [] };
    });
    expect(told).toEqual([['TaskCreated', '1'], ['TaskCompleted', '1']]);
    expect(review).toMatchObject({ todos: [task('1', 'Ship it', 'pending')], by: 'gate' });

    const invalid = await reviewTasks([], { todos: [{ id: '1', status: 'finished' }] }, async () => {
      throw new Error('not asked');
    });
    expect(invalid).toEqual({ feedback: [] });
  });

  it('asks nothing when no task is added or completed', async () => {
    const before = [task('1', 'Ship it', 'done'), task('2', 'Tell the team', 'pending')];
    const review = await reviewTasks(before, { todos: [task('2', 'Tell the team', 'in_progress')] }, async () => {
      throw new Error('not asked');
    });
    expect(review).toEqual({ feedback: [] });
  });
});

describe("write_todos as Claude Code's TodoWrite", () => {
  it('maps the list to Claude fields and a rewritten list back', () => {
    const args = { todos: [task('1', 'Ship it', 'done'), task('2', 'Tell the team', 'pending')] };
    const input = toClaudeInput(tools, 'write_todos', args, '/ws');
    expect(input).toEqual({
      todos: [
        { id: '1', content: 'Ship it', status: 'completed', activeForm: 'Ship it' },
        { id: '2', content: 'Tell the team', status: 'pending', activeForm: 'Tell the team' },
      ],
    });
    expect(fromClaudeInput(tools, 'write_todos', input)).toEqual(args);
  });
});

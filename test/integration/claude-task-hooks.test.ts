/**
 * Claude Code's TaskCreated and TaskCompleted on the todo list: `write_todos` is Claude's TodoWrite,
 * each task it adds or marks done is told to the handlers, and a handler can refuse one — the list
 * then keeps the task out (or not done) and the model reads why.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StreamEvent, Todo } from '../../src/shared/types/index.ts';
import type { ScriptedTurn } from '../helpers/scripted-llm.ts';
import { useScriptedWorkbench } from '../helpers/scripted-workbench.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
const scripted = useScriptedWorkbench(env);

function hooks(config: Record<string, string>): void {
  const entries = Object.entries(config).map(([event, command]) => [event, [{ hooks: [{ command }] }]]);
  writeFileSync(join(env.claudeDir, 'settings.json'), JSON.stringify({ hooks: Object.fromEntries(entries) }));
}

const write = (...todos: Todo[]): ScriptedTurn => ({ toolCalls: [{ name: 'write_todos', args: { todos } }] });
const task = (id: string, title: string, status: Todo['status']): Todo => ({ id, title, status });

/** The todo list as the run last set it. */
const lastTodos = (events: StreamEvent[]) => events.flatMap((e) => (e.event === 'on_todos' ? [e.data.todos] : [])).at(-1);

/** The lines a command handler appends its stdin to, one JSON input per line. */
function logged(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('TaskCreated and TaskCompleted', () => {
  it('tells each added and each completed task once, and TodoWrite is the tool hooks see', async () => {
    const log = join(env.sb.home, '..', 'tasks.log');
    const pre = join(env.sb.home, '..', 'pre.log');
    hooks({
      TaskCreated: `cat >> '${log}'; echo >> '${log}'`,
      TaskCompleted: `cat >> '${log}'; echo >> '${log}'`,
      PreToolUse: `cat >> '${pre}'; echo >> '${pre}'`,
    });
    const { events } = await scripted.run([
      write(task('1', 'Write the tests', 'in_progress'), task('2', 'Fix the parser', 'pending')),
      write(task('1', 'Write the tests', 'done'), task('2', 'Fix the parser', 'in_progress')),
      { text: 'done' },
    ]);
    const inputs = logged(log);
    expect(inputs.map((i) => [i.hook_event_name, i.task_id])).toEqual([
      ['TaskCreated', '1'],
      ['TaskCreated', '2'],
      ['TaskCompleted', '1'],
    ]);
    expect(inputs[2]).toMatchObject({ task_subject: 'Write the tests', task_description: '' });
    expect(logged(pre)[1]).toMatchObject({
      tool_name: 'TodoWrite',
      tool_input: { todos: [{ content: 'Write the tests', status: 'completed', activeForm: 'Write the tests' }, { content: 'Fix the parser', status: 'in_progress' }] },
    });
    expect(lastTodos(events)).toEqual([task('1', 'Write the tests', 'done'), task('2', 'Fix the parser', 'in_progress')]);
  });

  it('keeps a task not done when a TaskCompleted handler refuses, and the model reads why', async () => {
    hooks({ TaskCompleted: "echo 'npm test fails: 3 failures in parser.test.ts' >&2; exit 2" });
    const { llm, events } = await scripted.run([
      write(task('1', 'Fix the parser', 'in_progress')),
      write(task('1', 'Fix the parser', 'done')),
      { text: 'I will fix the tests first' },
    ]);
    expect(lastTodos(events)).toEqual([task('1', 'Fix the parser', 'in_progress')]);
    const result = llm.calls[2]!.request.messages.filter((m) => m.role === 'tool').at(-1)!;
    expect(String(result.content)).toContain('task "Fix the parser" (1) was not marked done: npm test fails: 3 failures in parser.test.ts');
  });

  it('leaves out only the task a TaskCreated handler refuses', async () => {
    const refuseDeploys = `if grep -q '"task_subject":"Deploy'; then echo 'deploys are done by CI' >&2; exit 2; fi`;
    hooks({ TaskCreated: refuseDeploys });
    const { llm, events } = await scripted.run([
      write(task('a', 'Bump the version', 'pending'), task('b', 'Deploy to production', 'pending')),
      { text: 'ok' },
    ]);
    expect(lastTodos(events)).toEqual([task('a', 'Bump the version', 'pending')]);
    const result = String(llm.calls[1]!.request.messages.at(-1)!.content);
    expect(result).toContain('Todos updated: 0 done, 0 in progress, 1 pending');
    expect(result).toContain('task "Deploy to production" (b) was not added: deploys are done by CI');
  });

  it('ends the run on continue: false, the list as it was and the user told why', async () => {
    hooks({ TaskCreated: `printf '%s' '{"continue": false, "stopReason": "task budget used up"}'` });
    const { events } = await scripted.run([write(task('1', 'One more thing', 'pending'))]);
    expect(lastTodos(events)).toBeUndefined();
    const done = events.find((e) => e.event === 'done');
    expect(done?.event === 'done' && done.data.stop_reason).toBe('blocked');
    const notice = events.find((e) => e.event === 'on_hook_message');
    expect(notice?.event === 'on_hook_message' && notice.data).toMatchObject({ event: 'TaskCreated', kind: 'stop', message: 'task budget used up' });
  });
});

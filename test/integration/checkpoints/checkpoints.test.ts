/**
 * Checkpoints end to end: every agent write is kept with its content before, and a tool call, a file
 * or a run can be reverted; a file the user changed since is a conflict and is left alone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../../src/main/api/workbench.ts';
import type { Workbench } from '../../../src/main/api/types.ts';
import { createScriptedLlm, type ScriptedTurn } from '../../helpers/scripted-llm.ts';
import { sandbox, type Sandbox } from '../../unit/user-hooks/helpers.ts';

let sb: Sandbox;
let wb: Workbench | undefined;
beforeEach(() => {
  sb = sandbox();
});
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  sb.cleanup();
});

const call = (id: string, name: string, args: Record<string, unknown>): ScriptedTurn => ({
  toolCalls: [{ id, name, args }],
});

async function run(turns: ScriptedTurn[], threadId?: string) {
  wb ??= await createWorkbench({
    home: sb.home,
    workspace: sb.ws,
    llm: createScriptedLlm(turns),
    interactive: false,
  });
  const handle = await wb.chat.send({ threadId, text: 'change files', approvalMode: 'auto' });
  await handle.finished;
  return handle;
}

describe('checkpoints', () => {
  it('keeps each write and reverts one tool call, restoring the content before it', async () => {
    writeFileSync(join(sb.ws, 'a.txt'), 'one\n');
    const h = await run([
      call('c1', 'edit_file', { path: 'a.txt', old_text: 'one', new_text: 'two' }),
      call('c2', 'write_file', { path: 'new.txt', content: 'fresh' }),
      { text: 'done' },
    ]);
    const list = wb!.checkpoints.list({ threadId: h.threadId });
    expect(list.map((c) => [c.tool_call_id, c.path, c.change])).toEqual([
      ['c1', 'a.txt', 'modified'],
      ['c2', 'new.txt', 'created'],
    ]);
    expect(wb!.checkpoints.diff({ threadId: h.threadId, toolCallId: 'c1' })).toEqual([
      { path: 'a.txt', before: 'one\n', after: 'two\n' },
    ]);

    const r = await wb!.checkpoints.revert({ threadId: h.threadId, toolCallId: 'c1' });
    expect(r.status).toBe('reverted');
    expect(readFileSync(join(sb.ws, 'a.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(sb.ws, 'new.txt'), 'utf8')).toBe('fresh');
    expect(wb!.checkpoints.list({ threadId: h.threadId })[0]!.reverted).toBe(true);
  });

  it('reverting a run removes the files it created and restores the ones it changed', async () => {
    writeFileSync(join(sb.ws, 'a.txt'), 'v0');
    const h = await run([
      call('c1', 'write_file', { path: 'a.txt', content: 'v1' }),
      call('c2', 'write_file', { path: 'a.txt', content: 'v2' }),
      call('c3', 'write_file', { path: 'sub/b.txt', content: 'b' }),
      { text: 'done' },
    ]);
    const r = await wb!.checkpoints.revert({ threadId: h.threadId, runId: h.runId });
    expect(r).toMatchObject({ status: 'reverted', conflicts: [] });
    expect(readFileSync(join(sb.ws, 'a.txt'), 'utf8')).toBe('v0');
    expect(existsSync(join(sb.ws, 'sub/b.txt'))).toBe(false);
  });

  it('a file changed since the write is a conflict: nothing is written until the user forces it', async () => {
    writeFileSync(join(sb.ws, 'a.txt'), 'v0');
    writeFileSync(join(sb.ws, 'b.txt'), 'b0');
    const h = await run([
      call('c1', 'write_file', { path: 'a.txt', content: 'v1' }),
      call('c2', 'write_file', { path: 'b.txt', content: 'b1' }),
      { text: 'done' },
    ]);
    writeFileSync(join(sb.ws, 'a.txt'), 'edited by the user');
    const r = await wb!.checkpoints.revert({ threadId: h.threadId, runId: h.runId });
    expect(r.status).toBe('conflict');
    expect(r.conflicts).toEqual([{ path: 'a.txt', expected: 'v1', actual: 'edited by the user' }]);
    // All or nothing: the file without a conflict was not reverted either.
    expect(readFileSync(join(sb.ws, 'b.txt'), 'utf8')).toBe('b1');
    expect(readFileSync(join(sb.ws, 'a.txt'), 'utf8')).toBe('edited by the user');

    const forced = await wb!.checkpoints.revert({
      threadId: h.threadId,
      runId: h.runId,
      force: true,
    });
    expect(forced.status).toBe('reverted');
    expect(readFileSync(join(sb.ws, 'a.txt'), 'utf8')).toBe('v0');
    expect(readFileSync(join(sb.ws, 'b.txt'), 'utf8')).toBe('b0');
  });

  it('a FIFO put in place of a written file is a conflict at once, and a forced revert replaces it', async () => {
    const h = await run([
      call('c1', 'write_file', { path: 'a.txt', content: 'v1' }),
      { text: 'done' },
    ]);
    rmSync(join(sb.ws, 'a.txt'));
    execFileSync('mkfifo', [join(sb.ws, 'a.txt')]);
    const r = await wb!.checkpoints.revert({ threadId: h.threadId, toolCallId: 'c1' });
    expect(r.status).toBe('conflict');
    expect(r.conflicts).toEqual([
      {
        path: 'a.txt',
        expected: 'v1',
        actual: '[not a regular file: a named pipe, socket or device]',
      },
    ]);
    const forced = await wb!.checkpoints.revert({
      threadId: h.threadId,
      toolCallId: 'c1',
      force: true,
    });
    expect(forced.status).toBe('reverted');
    expect(existsSync(join(sb.ws, 'a.txt'))).toBe(false);
  });

  it('reverting an earlier call whose file a later call changed again is a conflict', async () => {
    writeFileSync(join(sb.ws, 'a.txt'), 'v0');
    const h = await run([
      call('c1', 'write_file', { path: 'a.txt', content: 'v1' }),
      call('c2', 'write_file', { path: 'a.txt', content: 'v2' }),
      { text: 'done' },
    ]);
    const r = await wb!.checkpoints.revert({ threadId: h.threadId, toolCallId: 'c1' });
    expect(r.status).toBe('conflict');
    expect(readFileSync(join(sb.ws, 'a.txt'), 'utf8')).toBe('v2');
    const file = await wb!.checkpoints.revert({ threadId: h.threadId, path: 'a.txt' });
    expect(file.status).toBe('reverted');
    expect(readFileSync(join(sb.ws, 'a.txt'), 'utf8')).toBe('v0');
  });
});

describe('fork', () => {
  it('copies the messages before a user message into a new thread and leaves the original', async () => {
    const first = await run([{ text: 'first answer' }, { text: 'second answer' }]);
    await run([], first.threadId);
    const original = wb!.threads.get({ threadId: first.threadId })!.messages;
    expect(original.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const fork = wb!.threads.fork({ threadId: first.threadId, upTo: 2 });
    expect(fork.thread_id).not.toBe(first.threadId);
    expect(wb!.threads.get({ threadId: fork.thread_id })!.messages.map((m) => m.content)).toEqual([
      'change files',
      'first answer',
    ]);
    expect(wb!.threads.get({ threadId: first.threadId })!.messages).toHaveLength(4);
    expect(() => wb!.threads.fork({ threadId: first.threadId, upTo: 1 })).toThrow(
      /before one of its user messages/,
    );
  });
});

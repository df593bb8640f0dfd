/**
 * A round's messages are written after its next request went out (the end of the event loop's turn):
 * when that write fails, the run does not go on as if the thread were saved — it ends with an error
 * that says so, and the thread holds what the file holds.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homePaths } from '../../../src/main/store/index.ts';
import { useScriptedWorkbench } from '../../helpers/scripted-workbench.ts';
import { createScriptedLlm } from '../../helpers/scripted-llm.ts';
import { sandbox, type Sandbox } from '../../unit/user-hooks/helpers.ts';

const env = { sb: undefined as unknown as Sandbox };
beforeEach(() => {
  env.sb = sandbox();
});
afterEach(() => env.sb.cleanup());
const scripted = useScriptedWorkbench(env);

describe('a round that cannot be saved', () => {
  it('ends the run with an error naming why, and the thread shows what was saved', async () => {
    const wb = await scripted.open(createScriptedLlm([
      { toolCalls: [{ name: 'read_file', args: { path: 'missing.txt' } }] },
      { text: 'all done' },
    ]));
    // The database refuses tool results from now on, as a full disk would.
    const other = new DatabaseSync(homePaths(env.sb.home).db);
    other.exec(
      "CREATE TRIGGER no_results BEFORE INSERT ON messages WHEN NEW.role = 'tool' BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
    );
    other.close();
    const handle = await wb.chat.send({ text: 'go', approvalMode: 'auto' });
    const done = await handle.finished;
    expect(done.stop_reason).toBe('error');
    expect(done.error).toMatch(/the thread could not be saved: .*database or disk is full/);
    // Once the disk has room again, the call whose result was not saved is answered as cut short,
    // as after a crash.
    const again = new DatabaseSync(homePaths(env.sb.home).db);
    again.exec('DROP TRIGGER no_results');
    again.close();
    const kept = wb.threads.get({ threadId: handle.threadId })!.messages;
    expect(kept.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(kept[2]).toMatchObject({ tool_call_id: kept[1]!.tool_calls![0]!.id, status: 'cancelled' });
  });

  it('keeps every message of a run that saves normally, in order, for the next process', async () => {
    const wb = await scripted.open(createScriptedLlm([
      { toolCalls: [{ name: 'read_file', args: { path: 'missing.txt' } }] },
      { toolCalls: [{ name: 'ls', args: {} }] },
      { text: 'all done' },
    ]));
    const handle = await wb.chat.send({ text: 'go', approvalMode: 'auto' });
    expect((await handle.finished).stop_reason).toBe('completed');
    const reader = new DatabaseSync(homePaths(env.sb.home).db, { readOnly: true });
    const rows = reader
      .prepare('SELECT role, content FROM messages WHERE thread_id = ? ORDER BY seq')
      .all(handle.threadId);
    reader.close();
    expect(rows.map((r) => r.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(rows.at(-1)!.content).toBe('all done');
  });
});

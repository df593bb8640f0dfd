/**
 * Command snapshots end to end: what an `execute` call changed in the workspace (modified, created,
 * deleted files, symlinks) is listed in the thread's changes and reverted with a conflict check.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../../src/main/api/workbench.ts';
import type { Workbench } from '../../../src/main/api/types.ts';
import { printChanges, revertChanges } from '../../../src/main/cli/commands/thread-changes.ts';
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

const exec = (id: string, command: string): ScriptedTurn => ({
  toolCalls: [{ id, name: 'execute', args: { command } }],
});

async function run(turns: ScriptedTurn[]) {
  wb ??= await createWorkbench({
    home: sb.home,
    workspace: sb.ws,
    llm: createScriptedLlm(turns),
    interactive: false,
  });
  const handle = await wb.chat.send({ text: 'run it', approvalMode: 'auto' });
  await handle.finished;
  return handle;
}

const read = (p: string) => readFileSync(join(sb.ws, p), 'utf8');

function seed() {
  writeFileSync(join(sb.ws, 'keep.txt'), 'old\n');
  writeFileSync(join(sb.ws, 'gone.txt'), 'bye\n');
  writeFileSync(join(sb.ws, '.gitignore'), 'build/\n');
  mkdirSync(join(sb.ws, 'build'));
  writeFileSync(join(sb.ws, 'build', 'out.bin'), 'ignored');
  symlinkSync('keep.txt', join(sb.ws, 'link'));
}

const COMMAND =
  'echo new >> keep.txt; echo made > made.txt; rm gone.txt; echo rebuilt > build/out.bin; ' +
  'rm link; ln -s made.txt link';

describe('command snapshots', () => {
  it('lists what a command modified, created and deleted, and reverts it', async () => {
    seed();
    const h = await run([exec('x1', COMMAND), { text: 'done' }]);
    const list = wb!.checkpoints.list({ threadId: h.threadId });
    expect(list.map((c) => [c.tool_call_id, c.path, c.change]).sort()).toEqual([
      ['x1', 'gone.txt', 'deleted'],
      ['x1', 'keep.txt', 'modified'],
      ['x1', 'link', 'modified'],
      ['x1', 'made.txt', 'created'],
    ]);
    expect(wb!.checkpoints.diff({ threadId: h.threadId, path: 'keep.txt' })).toEqual([
      { path: 'keep.txt', before: 'old\n', after: 'old\nnew\n' },
    ]);

    const r = await wb!.checkpoints.revert({ threadId: h.threadId, toolCallId: 'x1' });
    expect(r).toMatchObject({ status: 'reverted', conflicts: [] });
    expect(read('keep.txt')).toBe('old\n');
    expect(read('gone.txt')).toBe('bye\n');
    expect(existsSync(join(sb.ws, 'made.txt'))).toBe(false);
    // The link comes back as a link to its old target, never as a copy of a file.
    expect(lstatSync(join(sb.ws, 'link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(sb.ws, 'link'))).toBe('keep.txt');
    // Ignored by the workspace's .gitignore: neither snapshotted nor touched.
    expect(read('build/out.bin')).toBe('rebuilt\n');
    // The workspace's own repository is never created or used; the shadow lives in the home.
    expect(existsSync(join(sb.ws, '.git'))).toBe(false);
    expect(existsSync(join(sb.home, 'shadow'))).toBe(true);
  });

  it('a file changed after the command stops the revert until the user forces it', async () => {
    seed();
    const h = await run([exec('x1', COMMAND), { text: 'done' }]);
    writeFileSync(join(sb.ws, 'keep.txt'), 'the user edited it\n');
    writeFileSync(join(sb.ws, 'gone.txt'), 'the user brought it back\n');
    const r = await wb!.checkpoints.revert({ threadId: h.threadId, toolCallId: 'x1' });
    expect(r.status).toBe('conflict');
    expect(r.conflicts).toEqual([
      { path: 'gone.txt', expected: null, actual: 'the user brought it back\n' },
      { path: 'keep.txt', expected: 'old\nnew\n', actual: 'the user edited it\n' },
    ]);
    expect(existsSync(join(sb.ws, 'made.txt'))).toBe(true);

    const forced = await wb!.checkpoints.revert({
      threadId: h.threadId,
      toolCallId: 'x1',
      force: true,
    });
    expect(forced.status).toBe('reverted');
    expect(read('keep.txt')).toBe('old\n');
    expect(read('gone.txt')).toBe('bye\n');
  });

  it('a link pointing outside is stored and restored as a link, never followed', async () => {
    const outside = join(sb.ws, '..', 'outside.txt');
    writeFileSync(outside, 'secret\n');
    symlinkSync(outside, join(sb.ws, 'ext'));
    const h = await run([exec('x1', 'rm ext; echo replaced > ext'), { text: 'done' }]);
    expect(wb!.checkpoints.diff({ threadId: h.threadId, toolCallId: 'x1' })).toEqual([
      { path: 'ext', before: outside, after: 'replaced\n' },
    ]);
    const r = await wb!.checkpoints.revert({ threadId: h.threadId, toolCallId: 'x1' });
    expect(r.status).toBe('reverted');
    expect(readlinkSync(join(sb.ws, 'ext'))).toBe(outside);
    expect(readFileSync(outside, 'utf8')).toBe('secret\n');
  });

  it('two commands at once are not snapshotted: the card says so and the span has the event', async () => {
    const h = await run([
      {
        toolCalls: [
          { id: 'p1', name: 'execute', args: { command: 'sleep 0.3; echo a > a.txt' } },
          { id: 'p2', name: 'execute', args: { command: 'sleep 0.3; echo b > b.txt' } },
        ],
      },
      { text: 'done' },
    ]);
    const results = wb!.threads
      .get({ threadId: h.threadId })!
      .messages.filter((m) => m.role === 'tool');
    expect(results).toHaveLength(2);
    for (const m of results)
      expect(m.content).toContain('workspace not snapshotted (another command ran');
    const events = wb!.trace
      .list({ threadId: h.threadId })
      .filter((s) => s.name === 'execute_tool execute')
      .map((s) => s.events.map((e) => e.name));
    expect(events).toEqual([['snapshot_skipped'], ['snapshot_skipped']]);
    expect(wb!.checkpoints.list({ threadId: h.threadId })).toEqual([]);
  });

  it('the CLI lists a command’s files and reverts them', async () => {
    writeFileSync(join(sb.ws, 'a.txt'), 'a');
    const h = await run([exec('x1', 'echo b > a.txt; echo c > c.txt'), { text: 'done' }]);
    const out: string[] = [];
    const io = { stdout: (s: string) => out.push(s), stderr: (s: string) => out.push(s) };
    printChanges(wb!, io as never, h.threadId, false);
    expect(out.join('')).toMatch(/x1 +modified +a\.txt/);
    expect(out.join('')).toMatch(/x1 +created +c\.txt/);
    expect(await revertChanges(wb!, io as never, h.threadId, ['--call', 'x1'])).toBe(0);
    expect(read('a.txt')).toBe('a');
    expect(existsSync(join(sb.ws, 'c.txt'))).toBe(false);
  });
});

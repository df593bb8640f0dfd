/**
 * How a tool call ended, as data: the live `on_tool_end` event and the stored tool message carry the
 * same status, so the chat shows the same label while the run is live and after a reload.
 */
import { chmodSync, chownSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import { createTrustStore } from '../../src/main/user-hooks/index.ts';
import type { StreamEvent, ToolStatus } from '../../src/shared/types/index.ts';
import { createScriptedLlm, type ScriptedTurn } from '../helpers/scripted-llm.ts';
import { sandbox, ZOO, type Sandbox } from '../unit/user-hooks/helpers.ts';

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

async function start(
  turns: ScriptedTurn[],
  interactive = false,
): Promise<{ wb: Workbench; events: StreamEvent[] }> {
  wb = await createWorkbench({
    home: sb.home,
    workspace: sb.ws,
    llm: createScriptedLlm(turns),
    interactive,
  });
  const events: StreamEvent[] = [];
  wb.subscribe((e) => events.push(e));
  return { wb, events };
}

const liveStatus = (events: StreamEvent[]): ToolStatus | undefined =>
  (events.find((e) => e.event === 'on_tool_end')?.data as { status?: ToolStatus } | undefined)
    ?.status;

/** The tool message's status read back from the database by a fresh workbench (a reload). */
async function storedStatus(threadId: string): Promise<ToolStatus | undefined> {
  await wb?.close();
  wb = await createWorkbench({
    home: sb.home,
    workspace: sb.ws,
    llm: createScriptedLlm(),
    interactive: false,
  });
  return wb.threads.get({ threadId })?.messages.find((m) => m.role === 'tool')?.status;
}

const NOBODY = 65534;

/**
 * Runs `fn` so that a mode-000 file really cannot be read. Root reads any file, so as root the
 * sandbox is handed to `nobody` and the effective ids switch for the duration (vitest runs each
 * test file in its own process, so nothing else runs under these ids).
 */
async function withoutRootPowers<T>(fn: () => Promise<T>): Promise<T> {
  if (process.getuid?.() !== 0) return fn();
  const base = join(sb.ws, '..');
  const chownTree = (dir: string) => {
    chownSync(dir, NOBODY, NOBODY);
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) chownTree(join(dir, e.name));
      else chownSync(join(dir, e.name), NOBODY, NOBODY);
    }
  };
  chownTree(base);
  process.setegid!(NOBODY);
  process.seteuid!(NOBODY);
  try {
    return await fn();
  } finally {
    process.seteuid!(0);
    process.setegid!(0);
  }
}

describe('tool status, live and after a reload', () => {
  it('a read failing with EACCES ("permission denied") is an error, not a deny', async () => {
    writeFileSync(join(sb.ws, 'locked.txt'), 'secret');
    chmodSync(join(sb.ws, 'locked.txt'), 0o000);
    const { threadId, events, output } = await withoutRootPowers(async () => {
      const { wb: w, events: evs } = await start([
        { toolCalls: [{ name: 'read_file', args: { path: 'locked.txt' } }] },
        { text: 'cannot read it' },
      ]);
      const handle = await w.chat.send({ text: 'read locked.txt' });
      await handle.finished;
      const end = evs.find((e) => e.event === 'on_tool_end')?.data as { error?: string };
      const id = handle.threadId;
      await w.close();
      wb = undefined;
      return { threadId: id, events: evs, output: end.error };
    });
    expect(output).toMatch(/permission denied/i);
    expect(liveStatus(events)).toBe('error');
    expect(await storedStatus(threadId)).toBe('error');
  });

  it("the user's deny is 'denied'", async () => {
    const { wb: w, events } = await start(
      [
        { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'A' } }] },
        { text: 'ok' },
      ],
      true,
    );
    w.subscribe((e) => {
      if (e.event === 'on_approval_request') {
        queueMicrotask(() =>
          w.chat.approve({
            approvalId: (e.data as { approval_id: string }).approval_id,
            decision: 'deny',
          }),
        );
      }
    });
    const handle = await w.chat.send({ text: 'write a.txt', approvalMode: 'ask' });
    await handle.finished;
    expect(events.some((e) => e.event === 'on_approval_request')).toBe(true);
    expect(liveStatus(events)).toBe('denied');
    expect(await storedStatus(handle.threadId)).toBe('denied');
  });

  it("a hook's block is 'blocked'", async () => {
    await createTrustStore(sb.home).trust(sb.ws);
    mkdirSync(join(sb.ws, '.claude'));
    const hook = {
      matcher: 'Write',
      hooks: [{ type: 'command', command: `${join(ZOO, 'claude', 'zoo.sh')} exit2 protected` }],
    };
    writeFileSync(
      join(sb.ws, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [hook] } }),
    );
    const { wb: w, events } = await start([
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'A' } }] },
      { text: 'ok' },
    ]);
    const handle = await w.chat.send({ text: 'write a.txt', approvalMode: 'auto' });
    await handle.finished;
    expect(liveStatus(events)).toBe('blocked');
    expect(await storedStatus(handle.threadId)).toBe('blocked');
  });

  it("a command past its deadline is 'timeout'", async () => {
    const { wb: w, events } = await start([
      { toolCalls: [{ name: 'execute', args: { command: 'sleep 5', timeout_seconds: 0.2 } }] },
      { text: 'too slow' },
    ]);
    const handle = await w.chat.send({ text: 'sleep', approvalMode: 'auto' });
    await handle.finished;
    expect(
      (events.find((e) => e.event === 'on_tool_end')?.data as { output: string }).output,
    ).toMatch(/timed out after 0.2s/);
    expect(liveStatus(events)).toBe('timeout');
    expect(await storedStatus(handle.threadId)).toBe('timeout');
  });
});

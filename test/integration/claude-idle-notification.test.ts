/**
 * Claude Code's `idle_prompt` notification: a finished thread nobody writes to for the wait runs the
 * workspace's Notification handlers matching `idle_prompt` once; a new message in time cancels it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createScriptedLlm } from '../helpers/scripted-llm.ts';
import { useScriptedWorkbench } from '../helpers/scripted-workbench.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
const scripted = useScriptedWorkbench(env);

/** Notification handlers keeping each input they get, one file per matcher. */
function notificationHooks(): { idle: string; permission: string } {
  const idle = join(env.sb.home, '..', 'idle.jsonl');
  const permission = join(env.sb.home, '..', 'permission.jsonl');
  const keep = (file: string) => ({ command: `cat >> '${file}'; echo >> '${file}'` });
  writeFileSync(
    join(env.claudeDir, 'settings.json'),
    JSON.stringify({
      hooks: {
        Notification: [
          { matcher: 'idle_prompt', hooks: [keep(idle)] },
          { matcher: 'permission_prompt', hooks: [keep(permission)] },
        ],
      },
    }),
  );
  return { idle, permission };
}

describe('the idle_prompt notification', () => {
  it('runs once when a finished thread waits for its user, with the thread and workspace', async () => {
    const files = notificationHooks();
    const wb = await scripted.open(createScriptedLlm([{ text: 'done' }]), { idlePromptMs: 150 });
    const handle = await wb.chat.send({ text: 'go', approvalMode: 'auto' });
    await handle.finished;
    await expect.poll(() => existsSync(files.idle), { timeout: 5000 }).toBe(true);
    await sleep(400);
    const lines = readFileSync(files.idle, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      hook_event_name: 'Notification',
      notification_type: 'idle_prompt',
      message: 'Agent Workbench is waiting for your input',
      session_id: handle.threadId,
      cwd: env.sb.ws,
    });
    expect(existsSync(files.permission)).toBe(false);
  });

  it('is not sent while the next run goes on, and waits again from its end', async () => {
    const files = notificationHooks();
    // The second run outlasts the first one's wait (its command takes 1.3 s).
    const llm = createScriptedLlm([
      { text: 'one' },
      { toolCalls: [{ name: 'execute', args: { command: 'sleep 1.3' } }] },
      { text: 'two' },
    ]);
    const wb = await scripted.open(llm, { idlePromptMs: 1000 });
    const first = await wb.chat.send({ text: 'go', approvalMode: 'auto' });
    await first.finished;
    await sleep(300);
    const second = await wb.chat.send({
      text: 'more',
      threadId: first.threadId,
      approvalMode: 'auto',
    });
    await second.finished;
    // Past the first run's wait, short of the second's: nothing yet.
    expect(existsSync(files.idle)).toBe(false);
    await expect.poll(() => existsSync(files.idle), { timeout: 5000 }).toBe(true);
    expect(readFileSync(files.idle, 'utf8').trim().split('\n')).toHaveLength(1);
  });
  it('is not sent for a thread deleted while its run went on', async () => {
    const files = notificationHooks();
    const wb = await scripted.open(
      createScriptedLlm([
        { toolCalls: [{ name: 'execute', args: { command: 'sleep 0.5' } }] },
        { text: 'done' },
      ]),
      { idlePromptMs: 100 },
    );
    const handle = await wb.chat.send({ text: 'go', approvalMode: 'auto' });
    await sleep(150);
    wb.threads.delete({ threadId: handle.threadId });
    await handle.finished;
    await sleep(600);
    expect(existsSync(files.idle)).toBe(false);
  });
});

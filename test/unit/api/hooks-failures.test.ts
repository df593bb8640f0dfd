/** Hook failures are never silent (chat warning, health) and replay runs a guard over recorded calls. */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyEvents } from '../../../src/renderer/stores/apply-event.ts';
import { hookWarningText } from '../../../src/renderer/features/chat/hook-warning.ts';
import { buildRows } from '../../../src/renderer/features/chat/rows.ts';
import type { AgentEventEnvelope } from '../../../src/shared/ipc/contract.ts';
import type { HookInfo, StreamEvent } from '../../../src/shared/types/index.ts';
import { panelSandbox, type PanelSandbox } from './panels-helpers.ts';

let sb: PanelSandbox;
afterEach(async () => sb?.cleanup());

/** A user-scope executable hook for `event` whose `run` is `body` (sh). */
function userHook(name: string, event: string, body: string): string {
  const dir = join(sb.home, 'hooks');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\nif [ "$1" = hook ]; then echo ${event}; exit 0; fi\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const lsTurns = () => [
  { toolCalls: [{ name: 'execute', args: { command: 'ls' } }] },
  { text: 'done' },
];

/** Runs one chat turn (auto approval) and returns its events. */
async function runOnce(text = 'go'): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  const off = sb.wb.subscribe((e) => events.push(e));
  const run = await sb.wb.chat.send({ text, approvalMode: 'auto' });
  await run.finished;
  off();
  return events;
}

const hookEnds = (events: StreamEvent[]) =>
  events.flatMap((e) => (e.event === 'on_hook_end' ? [e.data] : []));

/** The chat rows' hook warnings after the renderer applied the run's events. */
function warnings(events: StreamEvent[]): string[] {
  const envs: AgentEventEnvelope[] = events.map((event, i) => ({ seq: i + 1, event }));
  const data = applyEvents({ threads: {}, lastSeq: 0 }, envs);
  const thread = Object.values(data.threads)[0]!;
  return buildRows(thread).flatMap((r) =>
    r.kind === 'notice' && r.notice.kind === 'hook_failed' ? [hookWarningText(r.notice)] : [],
  );
}

async function info(id: string): Promise<HookInfo> {
  return (await sb.wb.hooks.list({ workspace: sb.ws })).hooks.find((h) => h.id === id)!;
}

describe('a failing hook is never silent', () => {
  it('an erroring guard shows a fail-open warning in the chat and error in its health', async () => {
    sb = await panelSandbox(lsTurns());
    userHook('broken', 'before_tool_call', 'cat >/dev/null; echo "boom" >&2; exit 1');
    const events = await runOnce();
    expect(hookEnds(events)).toContainEqual(
      expect.objectContaining({ hook: 'broken', ok: false, failed: 'open', timed_out: false }),
    );
    expect(warnings(events)).toEqual([
      'Hook broken (before_tool_call) failed: exited with 1: boom — failed open — the call went ahead.',
    ]);
    // The call went ahead: its result is the listing, not a block.
    expect(events.some((e) => e.event === 'on_tool_end' && e.data.status === 'ok')).toBe(true);
    const h = await info('executable:user:broken');
    expect(h.health).toEqual({ last: ['error'], last_error: 'exited with 1: boom' });
  });

  it('a timed-out hook shows timeout in the warning and in its health', async () => {
    sb = await panelSandbox(lsTurns());
    userHook('slow', 'before_tool_call', 'cat >/dev/null; sleep 5');
    await sb.wb.settings.update({
      hook_overrides: { 'executable:user:slow': { timeout_ms: 200 } },
    });
    const events = await runOnce();
    expect(hookEnds(events)).toContainEqual(
      expect.objectContaining({ hook: 'slow', ok: false, timed_out: true }),
    );
    expect(warnings(events)).toEqual([
      'Hook slow (before_tool_call) timed out — failed open — the call went ahead.',
    ]);
    expect((await info('executable:user:slow')).health?.last).toEqual(['timeout']);
  });

  it('a fail-closed guard that prints unreadable output blocks the call and says so', async () => {
    sb = await panelSandbox([...lsTurns(), ...lsTurns()]);
    userHook('garbled', 'before_tool_call', 'cat >/dev/null; echo "not json {"');
    const id = 'executable:user:garbled';
    expect((await sb.wb.hooks.update({ workspace: sb.ws, id, failMode: 'closed' })).fail_mode).toBe(
      'closed',
    );
    const events = await runOnce();
    expect(hookEnds(events)).toContainEqual(
      expect.objectContaining({ hook: 'garbled', ok: false, failed: 'closed' }),
    );
    const [warning] = warnings(events);
    expect(warning).toMatch(
      /^Hook garbled \(before_tool_call\) failed: .+ — failed closed — the call was blocked\.$/,
    );
    expect(events.some((e) => e.event === 'on_tool_end' && e.data.status === 'blocked')).toBe(true);
    // Health keeps the newest first.
    await runOnce('again');
    expect((await info(id)).health?.last).toEqual(['error', 'error']);
  });

  it('a hook that runs fine has ok health and no warning', async () => {
    sb = await panelSandbox(lsTurns());
    userHook('fine', 'before_tool_call', 'cat >/dev/null');
    const events = await runOnce();
    expect(warnings(events)).toEqual([]);
    expect((await info('executable:user:fine')).health).toEqual({ last: ['ok'] });
  });
});

describe('replay against history', () => {
  it('replays a guard over a recorded thread: one block, one allow, dry_run payloads, nothing recorded', async () => {
    sb = await panelSandbox([
      {
        toolCalls: [
          { name: 'execute', args: { command: 'rm -rf build' } },
          { name: 'execute', args: { command: 'ls' } },
        ],
      },
      { text: 'done' },
    ]);
    mkdirSync(join(sb.ws, 'build'));
    const run = await sb.wb.chat.send({ text: 'clean up', approvalMode: 'auto' });
    await run.finished;

    // The guard is written after the run (as a user would), modelled on Kodelet's documented example.
    const seen = join(sb.home, 'seen.jsonl');
    userHook(
      'no-rm',
      'before_tool_call',
      `p=$(cat); printf '%s\\n' "$p" >> ${seen}
case "$p" in *'"tool_name":"bash"'*'rm -rf'*) echo '{"blocked":true,"reason":"no rm -rf"}';; *) echo '{}';; esac`,
    );
    const rows = await sb.wb.hooks.replay({
      workspace: sb.ws,
      id: 'executable:user:no-rm',
      threadId: run.threadId,
    });
    expect(rows.map((r) => [r.tool, r.args.command, r.verdict, r.reason])).toEqual([
      ['execute', 'rm -rf build', 'block', 'no rm -rf'],
      ['execute', 'ls', 'allow', undefined],
    ]);
    expect(rows[0]!.thread_id).toBe(run.threadId);
    const payloads = readFileSync(seen, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(payloads).toHaveLength(2);
    for (const p of payloads) {
      expect(p).toMatchObject({
        event: 'before_tool_call',
        dry_run: true,
        tool_name: 'bash',
        conv_id: run.threadId,
      });
    }
    // Not recorded, so no health and no runs.
    expect((await info('executable:user:no-rm')).health).toBeUndefined();
    expect(sb.wb.hooks.runs({ hookId: 'executable:user:no-rm' })).toEqual([]);
    // --last 1 finds the same thread.
    const last = await sb.wb.hooks.replay({
      workspace: sb.ws,
      id: 'executable:user:no-rm',
      last: 1,
    });
    expect(last.map((r) => r.verdict)).toEqual(['block', 'allow']);
  });

  it('replays a Claude PreToolUse handler with its matcher; a non-tool event is refused', async () => {
    sb = await panelSandbox([
      {
        toolCalls: [
          { name: 'execute', args: { command: 'rm -rf build' } },
          { name: 'ls', args: { path: '.' } },
        ],
      },
      { text: 'done' },
    ]);
    const run = await sb.wb.chat.send({ text: 'go', approvalMode: 'auto' });
    await run.finished;
    const deny = `grep -q '"dry_run":true' && echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"dry run seen"}}'`;
    writeFileSync(
      join(sb.home, 'settings.json'),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: deny }] }] },
      }),
    );
    const guard = (await sb.wb.hooks.list({ workspace: sb.ws })).hooks.find(
      (h) => h.dialect === 'claude',
    )!;
    const rows = await sb.wb.hooks.replay({
      workspace: sb.ws,
      id: guard.id,
      threadId: run.threadId,
    });
    expect(rows.map((r) => [r.tool, r.verdict, r.reason])).toEqual([
      ['execute', 'block', 'dry run seen'],
    ]);
    await expect(
      sb.wb.hooks.replay({ workspace: sb.ws, id: guard.id, threadId: run.threadId, event: 'Stop' }),
    ).rejects.toMatchObject({ code: 'invalid_args' });
  });
});

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUserHooks, listUserHooks, setExecutableHookEnabled } from '../../../src/main/user-hooks/index.ts';
import type { Hook } from '../../../src/main/pipeline/hook.ts';
import { loadAgentProfile } from '../../../src/main/agents/profile.ts';
import { installFixture, installZoo, memoryHookRuns, runTool, sandbox, settingsWith, testContext, type Sandbox } from './helpers.ts';
import type { WorkbenchSettings } from '../../../src/shared/types/index.ts';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

async function setup(settings: WorkbenchSettings = settingsWith(), trusted = true) {
  const hookRuns = memoryHookRuns();
  const user = await createUserHooks({ workspace: sb.ws, home: sb.home, settings, trusted, hookRuns });
  const t = testContext(sb.ws, sb.home, settings);
  const hook = user.hooks.find((h) => h.name === 'executable-hooks') as Hook | undefined;
  const call = (args: Record<string, unknown> = { command: 'ls' }, name = 'execute') => hook!.wrapToolCall!(t.ctx, { id: 'c1', name, args }, runTool(t));
  return { user, t, hook, hookRuns, call };
}

describe('executable hook discovery', () => {
  it('lists hooks of both folders; workspace wins a name clash; problems are listed, not run', async () => {
    installZoo(sb.wsHooks, 'g@before_tool_call--allow');
    installZoo(sb.userHooks, 'g@before_tool_call--allow');
    installZoo(sb.userHooks, 'before_tool_call--allow');
    installZoo(sb.userHooks, 'x--bad-type');
    installZoo(sb.userHooks, 'x--hook-fails');
    installFixture(sb.userHooks, 'not-executable');
    installFixture(sb.userHooks, 'missing-interpreter');
    installZoo(sb.userHooks, 'after_turn--touch.disable');
    const infos = await listUserHooks({ workspace: sb.ws, home: sb.home, settings: settingsWith(), trusted: true });
    const byId = Object.fromEntries(infos.map((i) => [i.id, i]));
    expect(byId['executable:workspace:g@before_tool_call--allow'].source).toBe('workspace');
    expect(byId['executable:user:g@before_tool_call--allow'].problem).toMatch(/shadowed/);
    expect(byId['executable:user:before_tool_call--allow']).toMatchObject({ events: ['before_tool_call'], enabled: true, trusted: true, dialect: 'executable' });
    expect(byId['executable:user:before_tool_call--allow'].problem).toBeUndefined();
    expect(byId['executable:user:x--bad-type'].problem).toMatch(/bad hook type/);
    expect(byId['executable:user:x--hook-fails'].problem).toMatch(/exited with 3/);
    expect(byId['executable:user:not-executable'].problem).toMatch(/not executable/);
    expect(byId['executable:user:missing-interpreter'].problem).toMatch(/ENOENT/);
    expect(byId['executable:user:after_turn--touch']).toMatchObject({ enabled: false });
  });

  it('never runs an untrusted workspace hook, not even `hook`; user hooks still run', async () => {
    installZoo(sb.wsHooks, 'user_message_send--block');
    installZoo(sb.userHooks, 'before_tool_call--touch');
    const { user, t, hook } = await setup(settingsWith(), false);
    const info = user.infos.find((i) => i.id === 'executable:workspace:user_message_send--block')!;
    expect(user.diagnostics).toEqual([expect.stringMatching(/^1 hook\(s\) of workspace .* will not run until you trust it/)]);
    expect(info).toMatchObject({ trusted: false, events: [] });
    expect(await hook!.onUserMessage?.(t.ctx, 'hi')).toEqual({ blocked: false });
    await hook!.wrapToolCall!(t.ctx, { id: 'c', name: 'execute', args: { command: 'ls' } }, runTool(t));
    expect(existsSync(join(sb.ws, 'ran-before_tool_call--touch'))).toBe(true);
  });

  it('--no-hooks and disableAllHooks give no hooks', async () => {
    installZoo(sb.userHooks, 'before_tool_call--block');
    const a = await createUserHooks({ workspace: sb.ws, home: sb.home, settings: settingsWith(), trusted: true, noHooks: true });
    const b = await createUserHooks({ workspace: sb.ws, home: sb.home, settings: settingsWith({}, { disableAllHooks: true }), trusted: true });
    expect(a.hooks).toEqual([]);
    expect(b.hooks).toEqual([]);
  });

  it('hook_overrides[id].enabled=false also switches an executable hook off', async () => {
    installZoo(sb.wsHooks, 'before_tool_call--block');
    const { hook, user } = await setup(settingsWith({ 'executable:workspace:before_tool_call--block': { enabled: false } }));
    expect(hook).toBeUndefined();
    expect(user.infos[0].enabled).toBe(false);
  });

  it('a `.disable` rename takes effect on the very next event, and back', async () => {
    const path = installZoo(sb.wsHooks, 'before_tool_call--block');
    const { call } = await setup();
    expect((await call()).error).toMatch(/^blocked by hook before_tool_call--block/);
    const disabled = await setExecutableHookEnabled(path, false);
    expect(disabled).toBe(`${path}.disable`);
    expect((await call()).error).toBeUndefined();
    expect(await setExecutableHookEnabled(disabled, true)).toBe(path);
    expect((await call()).error).toMatch(/blocked/);
    const infos = await listUserHooks({ workspace: sb.ws, home: sb.home, settings: settingsWith(), trusted: true });
    expect(infos.find((i) => i.name === 'before_tool_call--block')?.enabled).toBe(true);
    renameSync(path, `${path}.disable`);
    const after = await listUserHooks({ workspace: sb.ws, home: sb.home, settings: settingsWith(), trusted: true });
    expect(after.find((i) => i.name === 'before_tool_call--block')).toMatchObject({ enabled: false, events: ['before_tool_call'] });
  });
});

describe('executable hook semantics', () => {
  it('deny-fast: the first block wins and later hooks do not run', async () => {
    installZoo(sb.wsHooks, '1@before_tool_call--allow');
    installZoo(sb.wsHooks, '2@before_tool_call--block');
    installZoo(sb.wsHooks, '3@before_tool_call--touch');
    const { call, t, hookRuns } = await setup();
    const res = await call();
    expect(res.error).toBe('blocked by hook 2@before_tool_call--block: policy of 2@before_tool_call--block');
    expect(existsSync(join(sb.ws, 'ran-3@before_tool_call--touch'))).toBe(false);
    expect(hookRuns.rows.map((r) => r.decision)).toEqual(['allow', 'block']);
    expect(t.events.find((e) => e.event === 'on_blocked')?.data).toMatchObject({ by: '2@before_tool_call--block', target: 'tool_call', tool_call_id: 'c1' });
  });

  it('a blocked user message reports reason and hook', async () => {
    installZoo(sb.wsHooks, 'user_message_send--block');
    const { hook, t } = await setup();
    expect(await hook!.onUserMessage!(t.ctx, 'hi')).toEqual({ blocked: true, reason: 'policy of user_message_send--block', by: 'user_message_send--block' });
  });

  it('payloads follow the documented protocol', async () => {
    installZoo(sb.wsHooks, 'before_tool_call--record');
    installZoo(sb.wsHooks, 'after_tool_call--record');
    installZoo(sb.wsHooks, 'user_message_send--record');
    const { hook, t, call } = await setup();
    await hook!.onUserMessage!(t.ctx, 'hello there');
    await call({ command: 'ls -la' });
    const read = (n: string) => JSON.parse(readFileSync(join(sb.ws, `payload-${n}.json`), 'utf8'));
    expect(read('user_message_send--record')).toEqual({ event: 'user_message_send', conv_id: 'thread_1', cwd: sb.ws, invoked_by: 'main', message: 'hello there' });
    expect(read('before_tool_call--record')).toEqual({ event: 'before_tool_call', conv_id: 'thread_1', cwd: sb.ws, invoked_by: 'main', tool_name: 'bash', tool_input: { command: 'ls -la' }, tool_user_id: 'c1' });
    const after = read('after_tool_call--record');
    expect(after).toMatchObject({ event: 'after_tool_call', tool_name: 'bash', tool_user_id: 'c1', blocked: false, tool_output: { toolName: 'bash', success: true, metadata: { command: 'ls -la', output: 'execute ran with {"command":"ls -la"}' } } });
    expect(typeof after.tool_output.timestamp).toBe('string');
  });

  it('a payload over 1 MB is delivered intact', async () => {
    installZoo(sb.wsHooks, 'before_tool_call--record');
    const { call } = await setup();
    const command = 'x'.repeat(2_000_000);
    await call({ command });
    expect(JSON.parse(readFileSync(join(sb.ws, 'payload-before_tool_call--record.json'), 'utf8')).tool_input.command).toBe(command);
  });

  it('a rewritten input pointing outside the workspace is refused', async () => {
    installZoo(sb.wsHooks, 'before_tool_call--rewrite-outside');
    const { call } = await setup();
    const res = await call({ path: 'a.txt' }, 'read_file');
    expect(res.error).toMatch(/^blocked by hook before_tool_call--rewrite-outside: rewritten input refused: path outside workspace/);
  });

  it('a rewritten input inside the workspace is used, and the result names the hook and what ran', async () => {
    installZoo(sb.wsHooks, 'before_tool_call--rewrite-inside');
    const { call } = await setup();
    const res = await call({ path: 'a.txt' }, 'read_file');
    expect(res.rewritten).toEqual({ by: 'before_tool_call--rewrite-inside', args: { path: 'inside.txt' } });
    expect(res.output).toBe('(input changed by hook before_tool_call--rewrite-inside; ran with {"path":"inside.txt"})\nread_file ran with {"path":"inside.txt"}');
  });

  it('a rewritten input failing the tool schema is refused', async () => {
    installZoo(sb.wsHooks, 'before_tool_call--rewrite-inside');
    const { call } = await setup();
    expect((await call({ command: 'ls' }, 'execute')).error).toMatch(/rewritten input is invalid: command/);
  });

  it('after_tool_call replaces the output', async () => {
    installZoo(sb.wsHooks, 'after_tool_call--rewrite-output');
    const { call } = await setup();
    expect(await call()).toEqual({ tool_call_id: 'c1', name: 'execute', output: 'REWRITTEN', status: 'ok' });
  });

  it('each hook sees the input and output as the hooks before it left them', async () => {
    installZoo(sb.wsHooks, 'a@before_tool_call--record');
    installZoo(sb.wsHooks, 'b@before_tool_call--rewrite-inside');
    installZoo(sb.wsHooks, 'c@before_tool_call--record');
    installZoo(sb.wsHooks, 'd@after_tool_call--record');
    installZoo(sb.wsHooks, 'e@after_tool_call--rewrite-output');
    installZoo(sb.wsHooks, 'f@after_tool_call--record');
    const { call } = await setup();
    expect((await call({ path: 'a.txt' }, 'read_file')).output).toMatch(/REWRITTEN$/);
    const seen = (name: string) => JSON.parse(readFileSync(join(sb.ws, `payload-${name}.json`), 'utf8'));
    expect(seen('a@before_tool_call--record').tool_input).toEqual({ file_path: join(sb.ws, 'a.txt') });
    expect(seen('c@before_tool_call--record').tool_input).toEqual({ file_path: join(sb.ws, 'inside.txt') });
    expect(seen('d@after_tool_call--record').tool_output.metadata.output).toMatch(/read_file ran with/);
    expect(seen('f@after_tool_call--record').tool_output.metadata.output).toBe('REWRITTEN');
  });

  it('agent_stop follow-ups accumulate; mutate and compact pass through', async () => {
    installZoo(sb.wsHooks, 'a@agent_stop--follow-up');
    installZoo(sb.userHooks, 'b@agent_stop--follow-up');
    installZoo(sb.userHooks, 'after_turn--compact');
    installZoo(sb.userHooks, 'c@agent_stop--mutate');
    const { hook, t } = await setup();
    const stop = await hook!.onAgentStop!(t.ctx, t.ctx.state.messages);
    expect(stop.follow_up_messages).toEqual(['follow-up from a@agent_stop--follow-up', 'follow-up from b@agent_stop--follow-up']);
    expect(stop.mutate).toEqual([{ role: 'user', content: 'mutated history' }]);
    const turn = await hook!.afterTurn!(t.ctx, { turn: 1, response: { content: 'x', tool_calls: [] } });
    expect(turn).toEqual({ callback: 'compact' });
  });

  it('after_turn and agent_stop payloads carry the context window and compaction trigger of agent.yaml', async () => {
    installZoo(sb.wsHooks, 'after_turn--empty');
    installZoo(sb.wsHooks, 'agent_stop--empty');
    mkdirSync(join(sb.ws, '.workbench'), { recursive: true });
    writeFileSync(join(sb.ws, '.workbench', 'agent.yaml'), 'context_window: 32000\ncompaction:\n  trigger: 0.6\n');
    const { hook, t, hookRuns } = await setup();
    const { profile } = await loadAgentProfile(sb.ws);
    const ctx = { ...t.ctx, profile };
    await hook!.afterTurn!(ctx, { turn: 1, response: { content: 'x', tool_calls: [], usage: { input_tokens: 100, output_tokens: 20 } } });
    await hook!.onAgentStop!(ctx, ctx.state.messages);
    const payloads = hookRuns.rows.map((r) => JSON.parse(r.payload) as { usage: { max_context_window: number }; auto_compact_threshold: number });
    expect(payloads.map((p) => [p.usage.max_context_window, p.auto_compact_threshold])).toEqual([
      [32_000, 0.6],
      [32_000, 0.6],
    ]);
  });

  it('exit 0 with empty stdout is no action', async () => {
    installZoo(sb.wsHooks, 'before_tool_call--empty');
    const { call, hookRuns } = await setup();
    expect((await call()).error).toBeUndefined();
    expect(hookRuns.rows[0]).toMatchObject({ decision: 'none', exit_code: 0 });
  });

  const failures = [
    'bad-truncated',
    'bad-plain',
    'bad-trailing-log',
    'bad-two-objects',
    'bad-array',
    'bad-string',
    'bad-schema',
    'exit-1',
    'exit-2',
    'exit-137',
  ];
  it.each(failures)('%s is a recorded failure that changes nothing (fail-open)', async (behaviour) => {
    installZoo(sb.wsHooks, `before_tool_call--${behaviour}`);
    const { call, hookRuns, t } = await setup();
    const res = await call();
    expect(res.error).toBeUndefined();
    expect(res.output).toContain('execute ran');
    expect(hookRuns.rows[0].decision).toBe('error');
    expect(hookRuns.rows[0].error).toBeTruthy();
    expect(t.events.find((e) => e.event === 'on_hook_end')?.data).toMatchObject({ ok: false, event: 'before_tool_call' });
  });

  it.each(failures)('%s blocks when the hook is fail-closed', async (behaviour) => {
    const name = `before_tool_call--${behaviour}`;
    installZoo(sb.wsHooks, name);
    const { call } = await setup(settingsWith({ [`executable:workspace:${name}`]: { fail_mode: 'closed' } }));
    expect((await call()).error).toMatch(new RegExp(`^blocked by hook ${name}: hook failed \\(fail-closed\\)`));
  });

  it('a UTF-8 BOM before the JSON is tolerated', async () => {
    installZoo(sb.wsHooks, 'before_tool_call--bom-block');
    const { call } = await setup();
    expect((await call()).error).toBe('blocked by hook before_tool_call--bom-block: bom ok');
  });

  it('70 KB of valid JSON is read as a decision', async () => {
    installZoo(sb.wsHooks, 'before_tool_call--json-70kb');
    const { call } = await setup();
    expect((await call()).error).toMatch(/^blocked by hook before_tool_call--json-70kb: a{70000}$/);
  });

  it('100 MB of output is "output too large", never parsed', async () => {
    installZoo(sb.wsHooks, 'before_tool_call--flood');
    const { call, hookRuns, t } = await setup();
    expect((await call()).error).toBeUndefined();
    expect(hookRuns.rows[0]).toMatchObject({ decision: 'error', error: 'output too large' });
    expect(t.spans.find((s) => s.kind === 'hook')?.attributes['workbench.hook.stdout_bytes']).toBe(100_000_000);
  });

  it('a hung hook costs one deadline (timeout override) and is traced as a timeout', async () => {
    installZoo(sb.wsHooks, 'before_tool_call--ignore-term');
    const { call, hookRuns, t } = await setup(settingsWith({ 'executable:workspace:before_tool_call--ignore-term': { timeout_ms: 1000, fail_mode: 'closed' } }));
    const started = Date.now();
    const res = await call();
    expect(Date.now() - started).toBeLessThan(1000 + 2000 + 4000);
    expect(res.error).toMatch(/hook failed \(fail-closed\): hook timed out/);
    expect(hookRuns.rows[0]).toMatchObject({ timed_out: true, signal: 'SIGKILL' });
    const span = t.spans.find((s) => s.kind === 'hook')!;
    expect(span.name).toBe('hook before_tool_call before_tool_call--ignore-term');
    expect(span.attributes).toMatchObject({ 'workbench.hook.timed_out': true, 'workbench.hook.kind': 'external', 'workbench.hook.fail_mode': 'closed', 'error.type': 'timeout' });
  });

  it('every run is stored and traced with its span id', async () => {
    installZoo(sb.wsHooks, 'before_tool_call--block');
    const { call, hookRuns, t } = await setup();
    await call();
    const span = t.spans.find((s) => s.kind === 'hook')!;
    expect(span.attributes).toMatchObject({ 'workbench.hook.name': 'before_tool_call--block', 'workbench.hook.event': 'before_tool_call', 'workbench.hook.decision': 'block', 'workbench.hook.exit_code': 0, 'workbench.hook.json_valid': true });
    expect(hookRuns.rows[0]).toMatchObject({ hook_id: 'executable:workspace:before_tool_call--block', span_id: span.span_id, thread_id: 'thread_1', run_id: 'run_1', exit_code: 0 });
    expect(JSON.parse(hookRuns.rows[0].payload).tool_name).toBe('bash');
    const end = t.events.find((e) => e.event === 'on_hook_end')!;
    expect(end.data).toMatchObject({ hook: 'before_tool_call--block', decision: 'block', ok: true, run_id: 1 });
  });

  it('a not-executable or missing-interpreter hook is listed with a problem and the run goes on', async () => {
    installFixture(sb.wsHooks, 'missing-interpreter');
    writeFileSync(join(sb.wsHooks, 'plain'), '#!/bin/sh\necho before_tool_call\n');
    const { user, hook } = await setup();
    expect(hook).toBeUndefined();
    expect(user.diagnostics.join('\n')).toMatch(/ENOENT/);
    expect(user.infos.find((i) => i.name === 'plain')?.problem).toMatch(/not executable/);
  });
});

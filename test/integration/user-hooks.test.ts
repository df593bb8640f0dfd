/**
 * User hooks through a whole run: createWorkbench + the scripted LLM, real hook processes, real files.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import { createTrustStore } from '../../src/main/user-hooks/index.ts';
import type { StreamEvent } from '../../src/shared/types/index.ts';
import { createScriptedLlm, type ScriptedLlm, type ScriptedTurn } from '../helpers/scripted-llm.ts';
import { installFixture, installZoo, sandbox, ZOO, type Sandbox } from '../unit/user-hooks/helpers.ts';

let sb: Sandbox;
let wb: Workbench | undefined;
const realHome = process.env.HOME;
beforeEach(() => {
  sb = sandbox();
  process.env.HOME = sb.home; // the audit-logger fixture hooks write to ~/.kodelet/audit.log
  mkdirSync(join(sb.home, '.kodelet'), { recursive: true });
});
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  process.env.HOME = realHome;
  sb.cleanup();
});

async function start(turns: ScriptedTurn[], opts: { trust?: boolean } = {}): Promise<{ wb: Workbench; llm: ScriptedLlm; events: StreamEvent[] }> {
  if (opts.trust !== false) await createTrustStore(sb.home).trust(sb.ws);
  const llm = createScriptedLlm(turns);
  wb = await createWorkbench({ home: sb.home, workspace: sb.ws, llm, interactive: false });
  const events: StreamEvent[] = [];
  wb.subscribe((e) => events.push(e));
  return { wb, llm, events };
}

const send = async (w: Workbench, text: string) => (await w.chat.send({ text, approvalMode: 'auto' })).finished;
const toolMessages = (llm: ScriptedLlm, call: number) => llm.calls[call].request.messages.filter((m) => m.role === 'tool').map((m) => m.content);

describe('user hooks in a full run', () => {
  it('the security guardrail hook in .workbench/hooks blocks an rm -rf the model asks for', async () => {
    installFixture(sb.wsHooks, 'executable/kodelet-v1-security-guardrail');
    mkdirSync(join(sb.ws, 'victim'));
    const { wb, llm, events } = await start([{ toolCalls: [{ name: 'execute', args: { command: 'rm -rf victim' } }] }, { text: 'I will not.' }]);
    const done = await send(wb, 'clean up');
    expect(done.stop_reason).toBe('completed');
    expect(existsSync(join(sb.ws, 'victim'))).toBe(true);
    expect(toolMessages(llm, 1)).toEqual(["Error: blocked by hook kodelet-v1-security-guardrail: Security policy: 'rm -rf' is not allowed"]);
    expect(events.find((e) => e.event === 'on_blocked')?.data).toMatchObject({ by: 'kodelet-v1-security-guardrail', target: 'tool_call' });
    llm.assertComplete();
  });

  it('the audit logger records every tool call, and every hook run is stored', async () => {
    installFixture(sb.userHooks, 'executable/kodelet-v2-audit-logger');
    const { wb, llm } = await start([
      { toolCalls: [{ name: 'execute', args: { command: 'echo one' } }, { name: 'write_file', args: { path: 'a.txt', content: 'A' } }] },
      { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { text: 'done' },
    ]);
    await send(wb, 'go');
    const lines = readFileSync(join(sb.home, '.kodelet', 'audit.log'), 'utf8').trim().split('\n');
    const tools = lines.map((l) => JSON.parse(l.slice(l.indexOf(' | ') + 3)).tool_name).sort();
    expect(tools).toEqual(['bash', 'file_read', 'file_write']);
    llm.assertComplete();
  });

  it('a Claude PreToolUse hook exiting 2 blocks a write', async () => {
    mkdirSync(join(sb.ws, '.claude'));
    writeFileSync(join(sb.ws, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: `${join(ZOO, 'claude', 'zoo.sh')} exit2 protected` }] }] } }));
    const { wb, llm } = await start([{ toolCalls: [{ name: 'write_file', args: { path: 'secret.txt', content: 'x' } }] }, { text: 'ok' }]);
    await send(wb, 'write it');
    expect(existsSync(join(sb.ws, 'secret.txt'))).toBe(false);
    expect(toolMessages(llm, 1)).toEqual(['Error: blocked by hook zoo.sh: no writes here (protected)']);
  });

  it('Claude hooks in $WORKBENCH_HOME/settings.json survive a settings update and block without trust', async () => {
    writeFileSync(join(sb.home, 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ command: join(ZOO, 'claude', 'zoo.sh'), args: ['deny', 'user-policy'] }] }] } }));
    const { wb, llm } = await start([{ toolCalls: [{ name: 'execute', args: { command: 'echo hi' } }] }, { text: 'ok' }], { trust: false });
    await wb.settings.update({ max_iterations: 5 });
    expect(JSON.parse(readFileSync(join(sb.home, 'settings.json'), 'utf8')).hooks).toBeTruthy();
    await send(wb, 'go');
    expect(toolMessages(llm, 1)).toEqual(['Error: blocked by hook zoo.sh: denied by user-policy']);
  });

  it("a run's hooks are started by the hook launcher, which ends with the workbench", async () => {
    const ppids = join(sb.home, 'ppids');
    writeFileSync(join(sb.home, 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ command: `echo $PPID >> ${ppids}` }] }] } }));
    const echo = { toolCalls: [{ name: 'execute', args: { command: 'echo hi' } }] };
    const { wb: w } = await start([echo, echo, echo, { text: 'ok' }], { trust: false });
    expect((await send(w, 'go')).stop_reason).toBe('completed');
    const launcher = Number(readFileSync(ppids, 'utf8').trim().split('\n').at(-1));
    expect(launcher).not.toBe(process.pid);
    expect(readFileSync(`/proc/${launcher}/cmdline`, 'utf8')).toContain('launcher/child.mjs');
    await w.close();
    wb = undefined;
    expect(existsSync(`/proc/${launcher}`)).toBe(false);
  });

  it('a follow-up hook makes the agent do one more turn', async () => {
    installFixture(sb.wsHooks, 'executable/kodelet-v1-foo-txt-remover');
    writeFileSync(join(sb.ws, 'foo.txt'), 'x');
    const { wb, llm } = await start([{ text: 'All done.' }, { toolCalls: [{ name: 'execute', args: { command: 'rm foo.txt' } }] }, { text: 'Removed foo.txt.' }]);
    const done = await send(wb, 'do the task');
    expect(done.stop_reason).toBe('completed');
    expect(existsSync(join(sb.ws, 'foo.txt'))).toBe(false);
    const second = llm.calls[1].request.messages.at(-1)!;
    expect(second).toMatchObject({ role: 'user', content: 'I noticed foo.txt exists. Please remove it.' });
    llm.assertComplete();
  });

  it('a hanging hook costs one deadline, not the session', async () => {
    installZoo(sb.wsHooks, 'before_tool_call--ignore-term');
    const { wb, llm } = await start([{ toolCalls: [{ name: 'execute', args: { command: 'echo still-ran' } }] }, { text: 'ok' }]);
    await wb.settings.update({ hook_overrides: { 'executable:workspace:before_tool_call--ignore-term': { timeout_ms: 1000 } } });
    const started = Date.now();
    const done = await send(wb, 'go');
    expect(Date.now() - started).toBeLessThan(1000 + 2000 + 5000);
    expect(done.stop_reason).toBe('completed');
    expect(toolMessages(llm, 1)[0]).toContain('still-ran');
  });

  it('a blocked user message starts no run; an untrusted workspace runs none of its hooks', async () => {
    installZoo(sb.wsHooks, 'user_message_send--block');
    const trusted = await start([]);
    const done = await send(trusted.wb, 'hi');
    expect(done.blocked).toEqual({ by: 'user_message_send--block', reason: 'policy of user_message_send--block' });
    expect(trusted.llm.calls).toHaveLength(0);
    await trusted.wb.close();
    wb = undefined;
    await createTrustStore(sb.home).untrust(sb.ws);
    const untrusted = await start([{ text: 'hello' }], { trust: false });
    expect((await send(untrusted.wb, 'hi')).blocked).toBeUndefined();
    untrusted.llm.assertComplete();
  });
});

/**
 * Claude Code `agent` handlers in a whole run: the hook's own agent reads the workspace with the
 * read tools (and nothing else), within the path guard and the user's permission rules, then gives
 * its verdict — `{"ok": false}` is the event's own block, as a prompt handler's is.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScriptedLlm, type ScriptedTurn } from '../helpers/scripted-llm.ts';
import {
  hookEnds,
  runCommand,
  toolEnds,
  useScriptedWorkbench,
} from '../helpers/scripted-workbench.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
const scripted = useScriptedWorkbench(env);

function writeSettings(settings: object): void {
  writeFileSync(join(env.claudeDir, 'settings.json'), JSON.stringify(settings));
}

const runScript = (script: ScriptedTurn[]) => scripted.run(script);

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });
const verdict = (args: Record<string, unknown>) => call('hook_verdict', args);

describe('Claude Code agent handlers', () => {
  it('read the workspace before denying a call, offered only the read tools and the verdict', async () => {
    writeFileSync(join(env.sb.ws, 'POLICY.md'), 'No package installs without a ticket number.\n');
    writeSettings({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'agent', prompt: 'Check the call against POLICY.md. $ARGUMENTS' }],
          },
        ],
      },
    });
    const { llm, events } = await runScript([
      runCommand('npm install left-pad'),
      call('read_file', { path: 'POLICY.md' }),
      verdict({ ok: false, reason: 'POLICY.md: installs need a ticket number' }),
      { text: 'done' },
    ]);
    expect(toolEnds(events)[0]?.error).toBe(
      'blocked by hook agent: Check the call against POLICY.md. $ARGUM: POLICY.md: installs need a ticket number',
    );
    const first = llm.calls[1]!.request;
    expect(first.tools.map((t) => t.name).sort()).toEqual([
      'glob',
      'grep',
      'hook_verdict',
      'read_file',
    ]);
    expect(String(first.messages[0]!.content)).toMatch(/^Check the call against POLICY\.md\. \{/);
    // The file it read reached its next turn.
    const second = llm.calls[2]!.request.messages;
    expect(second.at(-1)).toMatchObject({ role: 'tool' });
    expect(String(second.at(-1)!.content)).toContain(
      'No package installs without a ticket number.',
    );
    // What it read and decided is on the hook run.
    const [row] = scripted.wb.hooks!.runs({});
    expect(row?.stderr).toContain('read_file {"path":"POLICY.md"}');
    expect(row?.decision).toBe('deny');
  });

  it('cannot read outside the workspace or what a deny rule covers, nor run a command', async () => {
    mkdirSync(join(env.sb.ws, 'secrets'));
    writeFileSync(join(env.sb.ws, 'secrets', 'token.txt'), 'tok-SECRET-42\n');
    writeFileSync(join(env.sb.home, 'outside.txt'), 'OUTSIDE-CONTENT\n');
    writeSettings({
      permissions: { deny: ['Read(./secrets/**)'] },
      hooks: { Stop: [{ hooks: [{ type: 'agent', prompt: 'Did the agent finish?' }] }] },
    });
    const { llm } = await runScript([
      { text: 'finished' },
      {
        toolCalls: [
          { name: 'read_file', args: { path: 'secrets/token.txt' } },
          { name: 'read_file', args: { path: join(env.sb.home, 'outside.txt') } },
          { name: 'execute', args: { command: 'cat secrets/token.txt' } },
        ],
      },
      { text: 'I could not read them. {"ok": true}' },
    ]);
    const results = llm.calls[2]!.request.messages.filter((m) => m.role === 'tool');
    expect(results.map((m) => m.status)).toEqual(['denied', 'error', 'error']);
    expect(String(results[0]!.content)).toContain('Read(./secrets/**)');
    expect(String(results[2]!.content)).toContain('unknown tool "execute"');
    const everything = JSON.stringify(llm.calls.map((c) => c.request));
    expect(everything).not.toContain('tok-SECRET-42');
    expect(everything).not.toContain('OUTSIDE-CONTENT');
  });

  it('keep the agent working on a Stop verdict given as text, and fail open on no verdict', async () => {
    writeSettings({
      hooks: { Stop: [{ hooks: [{ type: 'agent', prompt: 'Were the tests run?' }] }] },
    });
    const { llm, events } = await runScript([
      { text: 'all done' },
      { text: '{"ok": false, "reason": "run the tests first"}' },
      { text: 'tests pass' },
      verdict({ reason: 'forgot ok' }),
    ]);
    expect(llm.calls[2]!.request.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'run the tests first',
    });
    expect(hookEnds(events).at(-1)).toMatchObject({
      ok: false,
      reason: 'hook_verdict was called without "ok": true or false',
    });
  });

  it('is tried from the hooks panel with the workbench model and the workspace read tools', async () => {
    writeFileSync(join(env.sb.ws, 'OWNERS'), 'only alice may deploy\n');
    writeSettings({
      hooks: { PreToolUse: [{ hooks: [{ type: 'agent', prompt: 'Check OWNERS. $ARGUMENTS' }] }] },
    });
    const llm = createScriptedLlm([
      call('grep', { pattern: 'deploy' }),
      verdict({ ok: false, reason: 'only alice may deploy' }),
    ]);
    const wb = await scripted.open(llm);
    const id = `claude:${join(env.claudeDir, 'settings.json')}#PreToolUse/0/0`;
    const r = await wb.hooks!.test({ workspace: env.sb.ws, id, event: 'PreToolUse' });
    expect(r).toMatchObject({ decision: 'deny', readAs: 'deny — only alice may deploy' });
    expect(String(llm.calls[1]!.request.messages.at(-1)!.content)).toContain(
      'only alice may deploy',
    );
  });
});

/**
 * Claude Code hooks' output channels, scopes and rewritten input, through a whole run
 * (createWorkbench + the scripted model, real hook processes written here as small shell scripts).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { ApprovalMode, StreamEvent } from '../../src/shared/types/index.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import { createTrustStore } from '../../src/main/user-hooks/index.ts';
import { createScriptedLlm, type ScriptedLlm, type ScriptedTurn } from '../helpers/scripted-llm.ts';
import { sandbox, type Sandbox } from '../unit/user-hooks/helpers.ts';

let sb: Sandbox;
let wb: Workbench | undefined;
let claudeDir: string;
const realHome = process.env.HOME;
const realConfigDir = process.env.CLAUDE_CONFIG_DIR;
beforeEach(() => {
  sb = sandbox();
  process.env.HOME = sb.home;
  claudeDir = join(sb.home, '.claude');
  process.env.CLAUDE_CONFIG_DIR = claudeDir;
});
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  process.env.HOME = realHome;
  if (realConfigDir === undefined) delete process.env.CLAUDE_CONFIG_DIR;
  else process.env.CLAUDE_CONFIG_DIR = realConfigDir;
  sb.cleanup();
});

/** Writes an executable shell script (stdin drained first) and returns its path. */
function script(name: string, body: string, dir = join(sb.home, 'scripts')): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\ninput=$(cat)\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
}

const projectSettings = (settings: Record<string, unknown>) =>
  writeJson(join(sb.ws, '.claude', 'settings.json'), settings);
const pre = (command: string, matcher = 'Bash') => ({
  hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command }] }] },
});

interface Ran {
  llm: ScriptedLlm;
  events: StreamEvent[];
  stopReason: string;
  threadId: string;
}

async function run(
  turns: ScriptedTurn[],
  opts: { mode?: ApprovalMode; trust?: boolean } = {},
): Promise<Ran> {
  if (opts.trust !== false) await createTrustStore(sb.home).trust(sb.ws);
  const llm = createScriptedLlm(turns);
  wb = await createWorkbench({ home: sb.home, workspace: sb.ws, llm, interactive: false });
  const events: StreamEvent[] = [];
  wb.subscribe((e) => events.push(e));
  const handle = await wb.chat.send({ text: 'go', approvalMode: opts.mode ?? 'auto' });
  const done = await handle.finished;
  llm.assertComplete();
  return { llm, events, stopReason: done.stop_reason, threadId: handle.threadId };
}

const toolResults = (llm: ScriptedLlm) =>
  llm.calls
    .at(-1)!
    .request.messages.filter((m) => m.role === 'tool')
    .map((m) => m.content);
const bash = (command: string) => ({ toolCalls: [{ name: 'execute', args: { command } }] });
const of = <K extends StreamEvent['event']>(events: StreamEvent[], name: K) =>
  events.filter((e): e is Extract<StreamEvent, { event: K }> => e.event === name);

describe('Claude hook output channels', () => {
  it('systemMessage reaches the user as a chat notice and the hook run record', async () => {
    projectSettings(pre(script('lint-notice.sh', `echo '{"systemMessage":"lint is slow today"}'`)));
    const { events } = await run([bash('echo hi'), { text: 'done' }]);
    expect(of(events, 'on_hook_message').map((e) => e.data)).toEqual([
      {
        hook: 'lint-notice.sh',
        event: 'PreToolUse',
        message: 'lint is slow today',
        kind: 'message',
      },
    ]);
    expect(wb!.hooks.runs({}).find((r) => r.hook_name === 'lint-notice.sh')?.reason).toBe(
      'lint is slow today',
    );
  });

  it('additionalContext in its top-level form reaches the model with the tool result', async () => {
    projectSettings({
      hooks: {
        PostToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                command: script(
                  'ctx.sh',
                  `echo '{"additionalContext":"remember: staging is read-only"}'`,
                ),
              },
            ],
          },
        ],
      },
    });
    const { llm } = await run([bash('echo hi'), { text: 'done' }]);
    expect(toolResults(llm)[0]).toContain('remember: staging is read-only');
  });

  it('Stop additionalContext keeps the agent working with the context; decision block with the reason', async () => {
    const stop = script(
      'stop-gate.sh',
      `case "$input" in *'"stop_hook_active":true'*) exit 0;; esac
echo '{"decision":"block","reason":"run the tests first","hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"tests live in test/"}}'`,
    );
    projectSettings({ hooks: { Stop: [{ hooks: [{ command: stop }] }] } });
    const { llm, stopReason } = await run([{ text: 'done?' }, { text: 'done' }]);
    expect(stopReason).toBe('completed');
    const followUps = llm.calls[1].request.messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(followUps).toEqual(['go', 'run the tests first', 'tests live in test/']);
  });

  it('permissionDecision "allow" skips the approval prompt of ask mode; other calls are still refused', async () => {
    projectSettings(
      pre(
        script(
          'allow-echo.sh',
          `case "$input" in *'echo allowed'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}';; esac`,
        ),
      ),
    );
    const { llm } = await run(
      [bash('echo allowed > a.txt'), bash('echo other > b.txt'), { text: 'done' }],
      { mode: 'ask' },
    );
    const [first, second] = toolResults(llm);
    expect(existsSync(join(sb.ws, 'a.txt'))).toBe(true);
    expect(first).not.toContain('did not allow');
    expect(second).toContain('the user did not allow');
    expect(existsSync(join(sb.ws, 'b.txt'))).toBe(false);
  });

  it('permissionDecision "ask" with nobody to ask is a deny, even in auto mode', async () => {
    projectSettings(
      pre(
        script(
          'ask.sh',
          `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"prod deploy"}}'`,
        ),
      ),
    );
    const { llm } = await run([bash('touch deployed'), { text: 'done' }]);
    expect(toolResults(llm)[0]).toContain('hook asked for confirmation: prod deploy');
    expect(existsSync(join(sb.ws, 'deployed'))).toBe(false);
  });

  it('continue:false ends the run after that call, showing the stopReason', async () => {
    projectSettings(
      pre(script('freeze.sh', `echo '{"continue":false,"stopReason":"repository is frozen"}'`)),
    );
    const { llm, events, stopReason, threadId } = await run([bash('touch x')]);
    expect(stopReason).toBe('blocked');
    expect(llm.calls).toHaveLength(1);
    expect(existsSync(join(sb.ws, 'x'))).toBe(false);
    expect(of(events, 'on_hook_message').map((e) => e.data)).toContainEqual({
      hook: 'freeze.sh',
      event: 'PreToolUse',
      message: 'repository is frozen',
      kind: 'stop',
    });
    // The thread stays valid: the call is answered.
    expect(wb!.threads.get({ threadId })!.messages.at(-1)).toMatchObject({
      role: 'tool',
      status: 'blocked',
    });
  });

  it('suppressOutput is accepted (a valid answer, not a hook error)', async () => {
    projectSettings(pre(script('quiet.sh', `echo '{"suppressOutput":true}'`)));
    const { events } = await run([bash('echo hi'), { text: 'done' }]);
    expect(of(events, 'on_hook_end').find((e) => e.data.hook === 'quiet.sh')?.data.ok).toBe(true);
  });
});

describe('input a hook rewrote', () => {
  it('the tool event, the stored tool message and the result say what ran and which hook changed it', async () => {
    projectSettings(
      pre(
        script(
          'dry-run.sh',
          `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rewritten"}}}'`,
        ),
      ),
    );
    const { events, threadId } = await run([bash('echo original'), { text: 'done' }]);
    const end = of(events, 'on_tool_end')[0].data;
    expect(end.rewritten_by).toBe('dry-run.sh');
    expect(end.args).toMatchObject({ command: 'echo rewritten' });
    const messages = wb!.threads.get({ threadId })!.messages;
    expect(messages.find((m) => m.role === 'assistant')!.tool_calls![0].args).toMatchObject({
      command: 'echo original',
    });
    const tool = messages.find((m) => m.role === 'tool')!;
    expect(tool.content).toContain(
      `(input changed by hook ${end.rewritten_by}; ran with {"command":"echo rewritten"`,
    );
    expect(tool.content).toContain('rewritten');
    expect(tool.content).not.toContain('original');
  });

  it('names the hook by its script file, not its interpreter', async () => {
    projectSettings(
      pre(
        `sh ${script('to-ls.sh', `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo from-hook"}}}'`)}`,
      ),
    );
    const { events } = await run([bash('echo x'), { text: 'done' }]);
    expect(of(events, 'on_tool_end')[0].data.rewritten_by).toBe('to-ls.sh');
  });
});

describe('Claude hook scopes', () => {
  it("the user's ~/.claude/settings.json hooks run in an untrusted workspace; the project's do not", async () => {
    writeJson(
      join(claudeDir, 'settings.json'),
      pre(script('user-guard.sh', 'echo "user guard" >&2; exit 2')),
    );
    projectSettings(pre(script('project-guard.sh', 'echo "project guard" >&2; exit 2')));
    const { llm } = await run([bash('touch y'), { text: 'done' }], { trust: false });
    expect(toolResults(llm)[0]).toContain('user guard');
    expect(toolResults(llm)[0]).not.toContain('project guard');
  });

  function installPlugin(id: string): string {
    const root = join(claudeDir, 'plugins', 'cache', 'market', id.split('@')[0], '1.0.0');
    script(
      'guard.sh',
      'echo "plugin guard at $CLAUDE_PLUGIN_ROOT" >&2; exit 2',
      join(root, 'scripts'),
    );
    writeJson(join(root, 'hooks', 'hooks.json'), {
      description: 'blocks shell commands',
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/scripts/guard.sh' }],
          },
        ],
      },
    });
    writeJson(join(claudeDir, 'plugins', 'installed_plugins.json'), {
      version: 2,
      plugins: { [id]: [{ scope: 'user', installPath: root, version: '1.0.0' }] },
    });
    return root;
  }

  it("an enabled plugin's hooks/hooks.json runs with CLAUDE_PLUGIN_ROOT", async () => {
    const root = installPlugin('no-shell@market');
    writeJson(join(claudeDir, 'settings.json'), { enabledPlugins: { 'no-shell@market': true } });
    const { llm } = await run([bash('touch z'), { text: 'done' }]);
    expect(toolResults(llm)[0]).toContain(`plugin guard at ${root}`);
    expect(existsSync(join(sb.ws, 'z'))).toBe(false);
  });

  it('a plugin keeps state in CLAUDE_PLUGIN_DATA, the folder Claude Code gives it, across runs', async () => {
    const root = join(claudeDir, 'plugins', 'cache', 'market', 'counter', '1.0.0');
    script(
      'count.sh',
      'n=$(cat "$CLAUDE_PLUGIN_DATA/count" 2>/dev/null || echo 0); echo $((n+1)) > "$CLAUDE_PLUGIN_DATA/count"',
      join(root, 'scripts'),
    );
    writeJson(join(root, 'hooks', 'hooks.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/scripts/count.sh' }],
          },
        ],
      },
    });
    writeJson(join(claudeDir, 'plugins', 'installed_plugins.json'), {
      version: 2,
      plugins: { 'counter@my.market': [{ scope: 'user', installPath: root, version: '1.0.0' }] },
    });
    writeJson(join(claudeDir, 'settings.json'), { enabledPlugins: { 'counter@my.market': true } });
    await run([bash('true'), { text: 'done' }]);
    await run([bash('true'), { text: 'done' }]);
    expect(
      readFileSync(join(claudeDir, 'plugins', 'data', 'counter-my-market', 'count'), 'utf8').trim(),
    ).toBe('2');
  });

  it('a plugin the project switches off does not run', async () => {
    installPlugin('no-shell@market');
    writeJson(join(claudeDir, 'settings.json'), { enabledPlugins: { 'no-shell@market': true } });
    writeJson(join(sb.ws, '.claude', 'settings.local.json'), {
      enabledPlugins: { 'no-shell@market': false },
    });
    const { llm } = await run([bash('touch off'), { text: 'done' }]);
    expect(toolResults(llm)[0]).not.toContain('plugin guard');
    expect(existsSync(join(sb.ws, 'off'))).toBe(true);
  });

  it('a plugin only an untrusted workspace enables does not run', async () => {
    installPlugin('no-shell@market');
    writeJson(join(sb.ws, '.claude', 'settings.local.json'), {
      enabledPlugins: { 'no-shell@market': true },
    });
    const { llm } = await run([bash('touch untrusted'), { text: 'done' }], { trust: false });
    expect(toolResults(llm)[0]).not.toContain('plugin guard');
  });
});

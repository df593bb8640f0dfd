/**
 * Coming from Claude Code or Kodelet: safety hooks written for those tools, copied into their usual
 * places, protect a whole run (createWorkbench + the scripted model, real hook processes).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { ApprovalMode } from '../../src/shared/types/index.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import { createTrustStore } from '../../src/main/user-hooks/index.ts';
import { createScriptedLlm, type ScriptedLlm, type ScriptedTurn } from '../helpers/scripted-llm.ts';
import { installFixture, sandbox, ZOO, type Sandbox } from '../unit/user-hooks/helpers.ts';

let sb: Sandbox;
let wb: Workbench | undefined;
const realHome = process.env.HOME;
beforeEach(() => {
  sb = sandbox();
  process.env.HOME = sb.home;
});
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  process.env.HOME = realHome;
  delete process.env.GUARD_ON;
  sb.cleanup();
});

const fixture = (name: string) => join(ZOO, 'compat', name);

function claudeSettings(settings: Record<string, unknown>): void {
  mkdirSync(join(sb.ws, '.claude'), { recursive: true });
  writeFileSync(join(sb.ws, '.claude', 'settings.json'), JSON.stringify(settings));
}

async function run(
  turns: ScriptedTurn[],
  approvalMode: ApprovalMode = 'auto',
): Promise<ScriptedLlm> {
  await createTrustStore(sb.home).trust(sb.ws);
  const llm = createScriptedLlm(turns);
  wb = await createWorkbench({ home: sb.home, workspace: sb.ws, llm, interactive: false });
  const done = await (await wb.chat.send({ text: 'go', approvalMode })).finished;
  expect(done.stop_reason).toBe('completed');
  llm.assertComplete();
  return llm;
}

/** What the model saw of the tool results, in order. */
const toolResults = (llm: ScriptedLlm) =>
  llm.calls
    .at(-1)!
    .request.messages.filter((m) => m.role === 'tool')
    .map((m) => m.content);
const bash = (command: string) => ({ toolCalls: [{ name: 'execute', args: { command } }] });

describe('Claude Code settings hooks', () => {
  it('a "tests before commit" gate reads the transcript: blocks the commit until npm test ran', async () => {
    writeFileSync(
      join(sb.ws, 'package.json'),
      JSON.stringify({ name: 'x', scripts: { test: 'echo tests-ok' } }),
    );
    claudeSettings({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: fixture('claude-tests-before-commit.mjs') }],
          },
        ],
      },
    });
    const llm = await run([
      bash('git commit -m wip'),
      bash('npm test'),
      bash('git commit -m wip'),
      { text: 'done' },
    ]);
    const [first, tests, second] = toolResults(llm);
    expect(first).toContain(
      'blocked by hook claude-tests-before-commit.mjs: run npm test before committing',
    );
    expect(tests).toContain('tests-ok');
    expect(second).not.toContain('blocked by hook');
    const [file] = readdirSync(join(sb.home, 'transcripts'));
    const lines = readFileSync(join(sb.home, 'transcripts', file), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const results = lines
      .filter((l) => l.type === 'user')
      .flatMap((l) => l.message.content)
      .filter((b) => b.type === 'tool_result');
    expect(results[1]).toMatchObject({
      type: 'tool_result',
      content: expect.stringContaining('tests-ok'),
    });
  });

  it('a .env guard reading tool_input.path (Grep) and tool_input.file_path (Read) keeps the secret out', async () => {
    writeFileSync(join(sb.ws, '.env'), 'API_KEY=sk-very-secret\n');
    claudeSettings({
      hooks: {
        PreToolUse: [
          { matcher: 'Read|Grep|Glob', hooks: [{ command: fixture('claude-no-dotenv.mjs') }] },
        ],
      },
    });
    const llm = await run([
      { toolCalls: [{ name: 'grep', args: { pattern: 'API', path: '.env' } }] },
      { toolCalls: [{ name: 'read_file', args: { path: '.env' } }] },
      { text: 'done' },
    ]);
    const results = toolResults(llm);
    expect(results[0]).toContain('Grep on .env is not allowed');
    expect(results[1]).toContain('Read on .env is not allowed');
    expect(results.join('\n')).not.toContain('sk-very-secret');
  });

  it("a guard switched on by the user's environment fires, with the settings file's env block", async () => {
    process.env.GUARD_ON = '1';
    claudeSettings({
      env: { GUARD_MODE: 'strict' },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ command: fixture('claude-env-guard.sh') }] }],
      },
    });
    const llm = await run([bash('touch made-it'), { text: 'done' }]);
    expect(toolResults(llm)[0]).toContain(`guard on (strict): no shell commands in ${sb.ws}`);
    expect(existsSync(join(sb.ws, 'made-it'))).toBe(false);
  });

  it("every settings file's env reaches every hook, a local file's over yours, as in Claude Code", async () => {
    mkdirSync(join(sb.home, '.claude'), { recursive: true });
    writeFileSync(
      join(sb.home, '.claude', 'settings.json'),
      JSON.stringify({ env: { GUARD_ON: '1', GUARD_MODE: 'yours' } }),
    );
    claudeSettings({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ command: fixture('claude-env-guard.sh') }] }],
      },
    });
    writeFileSync(
      join(sb.ws, '.claude', 'settings.local.json'),
      JSON.stringify({ env: { GUARD_MODE: 'local' } }),
    );
    const llm = await run([bash('touch made-it'), { text: 'done' }]);
    expect(toolResults(llm)[0]).toContain(`guard on (local): no shell commands in ${sb.ws}`);
    expect(existsSync(join(sb.ws, 'made-it'))).toBe(false);
  });

  it('SessionStart exports through CLAUDE_ENV_FILE reach the later shell commands', async () => {
    claudeSettings({
      hooks: { SessionStart: [{ hooks: [{ command: fixture('claude-session-env.sh') }] }] },
    });
    const llm = await run([bash('echo "flavor=$PROJECT_FLAVOR"'), { text: 'done' }]);
    expect(toolResults(llm)[0]).toContain('flavor=sweet');
  });

  it.each([
    ['auto', 'bypassPermissions'],
    ['auto-edit', 'acceptEdits'],
  ] as const)("permission_mode tells the run's own mode (%s → %s)", async (mode, expected) => {
    claudeSettings({
      hooks: { UserPromptSubmit: [{ hooks: [{ command: fixture('claude-record-mode.sh') }] }] },
    });
    await run([{ text: 'done' }], mode);
    expect(
      JSON.parse(readFileSync(join(sb.ws, 'last-hook-input.json'), 'utf8')).permission_mode,
    ).toBe(expected);
  });
});

describe('Kodelet hooks in .kodelet/hooks', () => {
  it('the documented bash guardrail blocks rm -rf, and the audit logger still sees the blocked call', async () => {
    const kodeletHooks = join(sb.ws, '.kodelet', 'hooks');
    mkdirSync(kodeletHooks, { recursive: true });
    for (const name of ['kodelet-no-rm-rf', 'kodelet-call-journal', 'kodelet-turn-journal'])
      installFixture(kodeletHooks, `compat/${name}`);
    mkdirSync(join(sb.ws, 'build'));
    const llm = await run([bash('rm -rf build'), bash('echo fine'), { text: 'all done' }]);
    expect(existsSync(join(sb.ws, 'build'))).toBe(true);
    expect(toolResults(llm)[0]).toContain(
      'blocked by hook kodelet-no-rm-rf: recursive deletes are off limits',
    );
    const journal = readFileSync(join(sb.ws, 'tool-journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(journal).toHaveLength(2);
    expect(journal[0]).toMatchObject({
      event: 'after_tool_call',
      tool_name: 'bash',
      tool_input: { command: 'rm -rf build' },
      blocked: true,
      tool_output: { toolName: 'bash', success: false },
    });
    expect(journal[1]).toMatchObject({
      tool_name: 'bash',
      blocked: false,
      tool_output: { success: true, metadata: { command: 'echo fine', exitCode: 0 } },
    });
    const turns = readFileSync(join(sb.ws, 'turn-journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(turns.map((t) => [t.event, t.turn_number])).toEqual([
      ['turn_end', 1],
      ['turn_end', 2],
      ['turn_end', 3],
    ]);
    expect(turns[2].response).toBe('all done');
  });

  it("a Kodelet plugin's hooks (~/.kodelet/plugins/<org@repo>/hooks) run, named org/repo/<hook>", async () => {
    const pluginHooks = join(sb.home, '.kodelet', 'plugins', 'acme@guards', 'hooks');
    mkdirSync(pluginHooks, { recursive: true });
    installFixture(pluginHooks, 'compat/kodelet-no-rm-rf');
    mkdirSync(join(sb.ws, 'build'));
    const llm = await run([bash('rm -rf build'), { text: 'done' }]);
    expect(existsSync(join(sb.ws, 'build'))).toBe(true);
    expect(toolResults(llm)[0]).toContain('blocked by hook acme/guards/kodelet-no-rm-rf');
  });

  it("an untrusted workspace's Kodelet plugin hooks do not run", async () => {
    const pluginHooks = join(sb.ws, '.kodelet', 'plugins', 'acme@audit', 'hooks');
    mkdirSync(pluginHooks, { recursive: true });
    installFixture(pluginHooks, 'compat/kodelet-call-journal');
    const llm = createScriptedLlm([bash('echo hi'), { text: 'done' }]);
    wb = await createWorkbench({ home: sb.home, workspace: sb.ws, llm, interactive: false });
    await (
      await wb.chat.send({ text: 'go', approvalMode: 'auto' })
    ).finished;
    expect(existsSync(join(sb.ws, 'tool-journal.jsonl'))).toBe(false);
  });

  it('an untrusted workspace keeps its .kodelet hooks from running', async () => {
    const kodeletHooks = join(sb.ws, '.kodelet', 'hooks');
    mkdirSync(kodeletHooks, { recursive: true });
    installFixture(kodeletHooks, 'compat/kodelet-call-journal');
    const llm = createScriptedLlm([bash('echo hi'), { text: 'done' }]);
    wb = await createWorkbench({ home: sb.home, workspace: sb.ws, llm, interactive: false });
    await (
      await wb.chat.send({ text: 'go', approvalMode: 'auto' })
    ).finished;
    expect(existsSync(join(sb.ws, 'tool-journal.jsonl'))).toBe(false);
  });
});

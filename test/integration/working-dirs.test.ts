/**
 * Working directories besides the workspace, as a Claude Code user adds them
 * (`permissions.additionalDirectories`, `--add-dir`): the agent reads, writes and reverts there as in
 * the workspace, sandboxed commands write there with its protected paths held, and a workspace
 * cannot add folders to itself before it is trusted (docs/security.md#working-directories).
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import { createHandlers, dispatch } from '../../src/main/api/handlers.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import type { StreamEvent } from '../../src/shared/types/index.ts';
import { detectSandbox } from '../../src/main/tools/sandbox/index.ts';
import { createScriptedLlm, type ScriptedTurn } from '../helpers/scripted-llm.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai-server.ts';
import { runCli, sandbox as cliSandbox } from '../helpers/run-cli.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const availability = await detectSandbox();
const bwrapUsable = availability.available && availability.engine === 'bubblewrap';

const env = useClaudeSandbox();
let wb: Workbench | undefined;
let fake: FakeOpenAi | undefined;
// Outside /tmp, which sandboxed commands see as a folder of their own.
let around: string;
let ws: string;
let lib: string;
beforeEach(() => {
  around = realpathSync(mkdtempSync('/var/tmp/wb-workdirs-'));
  ws = join(around, 'ws');
  lib = join(around, 'lib');
  mkdirSync(ws);
  mkdirSync(join(lib, '.git', 'hooks'), { recursive: true });
  writeFileSync(join(lib, 'util.txt'), 'v1\n');
});
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  await fake?.close();
  fake = undefined;
  rmSync(around, { recursive: true, force: true });
});

const call = (id: string, name: string, args: Record<string, unknown>): ScriptedTurn => ({
  toolCalls: [{ id, name, args }],
});

/** Runs the turns in auto mode; what the model was told for each call, the events and diagnostics. */
async function run(turns: ScriptedTurn[], o: { addDirs?: string[]; trust?: boolean } = {}) {
  const llm = createScriptedLlm([...turns, { text: 'done' }]);
  wb = await createWorkbench({ home: env.sb.home, workspace: ws, llm, interactive: false });
  const seen: StreamEvent[] = [];
  wb.subscribe((e) => seen.push(e));
  const handle = await wb.chat.send({ text: 'go', approvalMode: 'auto', ...o });
  await handle.finished;
  const last = llm.calls.at(-1)!.request.messages;
  return {
    threadId: handle.threadId,
    told: last.filter((m) => m.role === 'tool').map((m) => String(m.content)),
    system: llm.calls[0]!.request.system,
    started: seen.find((e) => e.event === 'on_run_start'),
    diagnostics: seen.flatMap((e) => (e.event === 'error' ? [e.data.message] : [])),
  };
}

const claudeSettings = (file: string, dirs: unknown[]) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ permissions: { additionalDirectories: dirs } }));
};

describe('working directories from your Claude Code settings', () => {
  it('are read, written and edited by the agent, named at the run start, and its writes there revert', async () => {
    claudeSettings(join(env.claudeDir, 'settings.json'), ['../lib']);
    const r = await run([
      call('c1', 'read_file', { path: join(lib, 'util.txt') }),
      call('c2', 'edit_file', { path: '../lib/util.txt', old_text: 'v1', new_text: 'v2' }),
      call('c3', 'write_file', { path: join(lib, 'new.txt'), content: 'fresh' }),
    ]);
    expect(r.diagnostics).toEqual([]);
    expect(r.started?.data).toMatchObject({ workspace: ws, working_dirs: [lib] });
    expect(r.system).toContain(
      `Additional working directories, read and written as the workspace is (use absolute paths): ${lib}`,
    );
    expect(r.told[0]).toContain('v1');
    expect(readFileSync(join(lib, 'util.txt'), 'utf8')).toBe('v2\n');
    expect(readFileSync(join(lib, 'new.txt'), 'utf8')).toBe('fresh');
    const changes = wb!.checkpoints
      .list({ threadId: r.threadId })
      .map((c) => [c.tool_call_id, c.path]);
    expect(changes).toEqual([
      ['c2', join(lib, 'util.txt')],
      ['c3', join(lib, 'new.txt')],
    ]);
    const reverted = await wb!.checkpoints.revert({
      threadId: r.threadId,
      runId: wb!.checkpoints.list({ threadId: r.threadId })[0]!.run_id,
    });
    expect(reverted.status).toBe('reverted');
    expect(readFileSync(join(lib, 'util.txt'), 'utf8')).toBe('v1\n');
    expect(existsSync(join(lib, 'new.txt'))).toBe(false);
  });

  it("are not read from a workspace's settings before it is trusted: the agent stays in the workspace and the run says why", async () => {
    const file = join(ws, '.claude', 'settings.json');
    claudeSettings(file, [lib]);
    const r = await run([
      call('c1', 'write_file', { path: join(lib, 'planted.txt'), content: 'x' }),
    ]);
    expect(r.told[0]).toContain('path outside workspace');
    expect(existsSync(join(lib, 'planted.txt'))).toBe(false);
    expect(r.diagnostics).toEqual([
      `${file}: permissions.additionalDirectories is not read until the workspace is trusted (\`workbench trust DIR\`)`,
    ]);
    const trusted = await run(
      [call('c1', 'write_file', { path: join(lib, 'planted.txt'), content: 'x' })],
      { trust: true },
    );
    expect(trusted.diagnostics).toEqual([]);
    expect(readFileSync(join(lib, 'planted.txt'), 'utf8')).toBe('x');
  });

  it('show the diff of a write waiting for approval there, as in the workspace', async () => {
    claudeSettings(join(env.claudeDir, 'settings.json'), [lib]);
    const llm = createScriptedLlm([
      call('c1', 'edit_file', { path: join(lib, 'util.txt'), old_text: 'v1', new_text: 'v2' }),
      { text: 'done' },
    ]);
    wb = await createWorkbench({ home: env.sb.home, workspace: ws, llm, interactive: true });
    const h = createHandlers({
      workbench: wb,
      mode: 'serve',
      version: '1',
      secrets: { get: () => undefined, set: async () => {}, storage: () => 'memory' as const },
    });
    const asked = new Promise<StreamEvent>((resolve) =>
      wb!.subscribe((e) => e.event === 'on_approval_request' && resolve(e)),
    );
    const handle = await wb.chat.send({ text: 'go', approvalMode: 'ask' });
    const request = await asked;
    if (request.event !== 'on_approval_request') throw new Error('not an approval');
    expect(request.data.working_dirs).toEqual([lib]);
    const proposed = await dispatch(h, 'checkpoints.proposed', {
      threadId: handle.threadId,
      approvalId: request.data.approval_id,
    });
    expect(proposed).toEqual({
      ok: true,
      value: { path: join(lib, 'util.txt'), before: 'v1\n', after: 'v2\n' },
    });
    wb.chat.approve({ approvalId: request.data.approval_id, decision: 'deny' });
    await handle.finished;
  });

  it('never open the home folder: such an entry is left out and said', async () => {
    const file = join(env.claudeDir, 'settings.json');
    claudeSettings(file, ['~']);
    const r = await run([]);
    expect(r.diagnostics).toEqual([
      `${file}: permissions.additionalDirectories: ~ is left out: it holds your home folder, whose credentials stay out of reach; name the folders inside it instead`,
    ]);
    expect(r.started?.data).not.toHaveProperty('working_dirs');
    expect(r.system.join('\n')).not.toContain('Additional working directories');
  });
});

describe('a working directory added for one run', () => {
  it.skipIf(!bwrapUsable)(
    'is writable for sandboxed commands, its git hooks are not, and a run without it keeps commands out',
    async () => {
      const command = `echo built > ${lib}/out.txt; echo evil > ${lib}/.git/hooks/post-checkout; cat ${lib}/out.txt`;
      const r = await run([call('c1', 'execute', { command })], { addDirs: [lib] });
      expect(r.told[0]).toContain('command sandboxed');
      expect(r.told[0]).toMatch(/post-checkout: Read-only file system\nbuilt\n/);
      expect(readFileSync(join(lib, 'out.txt'), 'utf8')).toBe('built\n');
      expect(existsSync(join(lib, '.git', 'hooks', 'post-checkout'))).toBe(false);
      await wb!.close();
      wb = undefined;
      const without = await run([
        call('c1', 'execute', { command: `echo again > ${lib}/again.txt` }),
      ]);
      expect(without.told[0]).toMatch(/again\.txt: Read-only file system/);
      expect(existsSync(join(lib, 'again.txt'))).toBe(false);
    },
  );

  it("offers its .claude/skills as Claude Code does, and runs a skill's hooks there only once the workspace is trusted", async () => {
    const skill = join(lib, '.claude', 'skills', 'release-notes');
    mkdirSync(skill, { recursive: true });
    const marker = join(around, 'hook-ran');
    writeFileSync(
      join(skill, 'SKILL.md'),
      [
        '---',
        'name: release-notes',
        'description: Writes release notes from the changelog of lib',
        'hooks:',
        '  PostToolUse:',
        '    - hooks:',
        `        - { type: command, command: "touch ${marker}" }`,
        '---',
        'Read CHANGELOG.md and write the notes.',
        '',
      ].join('\n'),
    );
    const turns = [
      call('c1', 'read_file', { path: join(skill, 'SKILL.md') }),
      call('c2', 'read_file', { path: join(lib, 'util.txt') }),
    ];
    const untrusted = await run(turns, { addDirs: [lib] });
    expect(untrusted.system.join('\n')).toMatch(
      /\[release-notes\] Writes release notes from the changelog of lib/,
    );
    expect(untrusted.told[0]).toContain('Read CHANGELOG.md and write the notes.');
    expect(existsSync(marker)).toBe(false);
    await wb!.close();
    wb = undefined;
    const trusted = await run(turns, { addDirs: [lib], trust: true });
    expect(trusted.told[1]).toMatch(/v1/);
    expect(existsSync(marker)).toBe(true);
    await wb!.close();
    wb = undefined;
    const without = await run([]);
    expect(without.system.join('\n')).not.toMatch(/release-notes/);
  });

  it("brings its CLAUDE.md into the model's context only with CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD=1, as Claude Code", async () => {
    writeFileSync(join(lib, 'CLAUDE.md'), 'lib uses tabs, never spaces');
    mkdirSync(join(lib, '.claude'), { recursive: true });
    writeFileSync(join(lib, '.claude', 'CLAUDE.md'), 'lib tests run with make check');
    const without = await run([], { addDirs: [lib] });
    expect(without.system.join('\n')).not.toContain('lib uses tabs');
    await wb!.close();
    wb = undefined;
    process.env.CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD = '1';
    try {
      const told = await run([], { addDirs: [lib] });
      const system = told.system.join('\n');
      expect(system).toContain('lib uses tabs, never spaces');
      expect(system).toContain('lib tests run with make check');
    } finally {
      delete process.env.CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD;
    }
    await wb!.close();
    wb = undefined;
    // Set in a settings file's `env`, as Claude Code users often do, it counts the same.
    writeFileSync(
      join(env.claudeDir, 'settings.json'),
      JSON.stringify({ env: { CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD: '1' } }),
    );
    const fromSettings = await run([], { addDirs: [lib] });
    expect(fromSettings.system.join('\n')).toContain('lib uses tabs, never spaces');
  });

  it('through the CLI: named on stderr, and a folder that does not exist is a usage error before anything runs', async () => {
    const { home, workspace } = await cliSandbox();
    const extra = join(dirname(home), 'extra');
    mkdirSync(extra);
    fake = await startFakeOpenAi({
      script: [
        {
          toolCalls: [
            { name: 'write_file', args: { path: join(extra, 'from-cli.txt'), content: 'ok' } },
          ],
        },
        { text: 'done' },
      ],
    });
    const cli = { home, workspace, baseURL: fake.baseURL };
    const ok = await runCli(['run', '--auto', '--add-dir', '../extra', 'write it'], cli);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain(`working directories: ${extra}\n`);
    expect(readFileSync(join(extra, 'from-cli.txt'), 'utf8')).toBe('ok');
    const missing = await runCli(['run', '--auto', '--add-dir', '../nowhere', 'write it'], cli);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `--add-dir: ${join(dirname(home), 'nowhere')} is left out: no folder ${join(dirname(home), 'nowhere')}`,
    );
    expect(fake.chatRequests()).toHaveLength(2);
    rmSync(dirname(home), { recursive: true, force: true });
  });
});

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUserHooks, listUserHooks } from '../../../src/main/user-hooks/index.ts';
import { claudeToolName, fromClaudeInput, matcherMatches, toClaudeInput } from '../../../src/main/user-hooks/claude-tools.ts';
import { ToolRegistry } from '../../../src/main/tools/registry.ts';
import { createFilesystemTools } from '../../../src/main/tools/index.ts';
import { memoryHookRuns, runTool, sandbox, settingsWith, testContext, ZOO, type Sandbox } from './helpers.ts';
import type { WorkbenchSettings } from '../../../src/shared/types/index.ts';
import { requestOf } from '../../helpers/model-request.ts';

const ZOO_SH = join(ZOO, 'claude', 'zoo.sh');
let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

type Handler = { command: string; args?: string[]; timeout?: number; type?: string; once?: boolean; onFailure?: unknown; async?: boolean };
const cmd = (behaviour: string, tag = ''): Handler => ({ command: `${ZOO_SH} ${behaviour} ${tag}`.trim() });
const exec = (behaviour: string, tag = ''): Handler => ({ command: ZOO_SH, args: [behaviour, tag] });

function writeSettings(file: string, hooks: Record<string, Array<{ matcher?: string; hooks: Handler[] }>>): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify({ hooks }));
}
const projectSettings = () => join(sb.ws, '.claude', 'settings.json');

async function setup(settings: WorkbenchSettings = settingsWith(), trusted = true) {
  const hookRuns = memoryHookRuns();
  const user = await createUserHooks({ workspace: sb.ws, home: sb.home, settings, trusted, hookRuns });
  const t = testContext(sb.ws, sb.home, settings);
  const hook = user.hooks.find((h) => h.name === 'claude-hooks');
  const call = (name: string, args: Record<string, unknown>) => hook!.wrapToolCall!(t.ctx, { id: 'tu_1', name, args }, runTool(t));
  return { user, t, hook, hookRuns, call };
}

describe('naming and matchers', () => {
  it("maps tool names and arguments both ways, from each tool's definition", () => {
    const tools = new ToolRegistry();
    for (const tool of createFilesystemTools()) tools.register(tool);
    const pairs = { execute: 'Bash', read_file: 'Read', write_file: 'Write', edit_file: 'Edit', glob: 'Glob', grep: 'Grep', ls: 'LS' };
    for (const [ours, theirs] of Object.entries(pairs)) expect(claudeToolName(tools, ours)).toBe(theirs);
    expect(claudeToolName(tools, 'my_tool')).toBe('my_tool');
    expect(toClaudeInput(tools, 'edit_file', { path: 'a/b.ts', old_text: 'x', new_text: 'y' }, '/ws')).toEqual({ file_path: '/ws/a/b.ts', old_string: 'x', new_string: 'y', replace_all: false });
    expect(toClaudeInput(tools, 'read_file', { path: '/abs/c.ts', offset: 3, limit: 9 }, '/ws')).toEqual({ file_path: '/abs/c.ts', offset: 3, limit: 9 });
    expect(toClaudeInput(tools, 'execute', { command: 'ls', timeout_seconds: 5 }, '/ws')).toEqual({ command: 'ls', timeout: 5000 });
    // Grep's and Glob's folder stays `path`, as Claude Code names it.
    expect(toClaudeInput(tools, 'grep', { pattern: 'API', path: '.env', glob: '*.ts' }, '/ws')).toEqual({ pattern: 'API', path: '/ws/.env', glob: '*.ts', output_mode: 'content', '-n': true });
    expect(toClaudeInput(tools, 'glob', { pattern: '*.ts', path: 'src' }, '/ws')).toEqual({ pattern: '*.ts', path: '/ws/src' });
    expect(toClaudeInput(tools, 'ls', { path: '.' }, '/ws')).toEqual({ path: '/ws' });
    expect(fromClaudeInput(tools, 'edit_file', { file_path: '/ws/a', old_string: 'x', new_string: 'y', replace_all: false })).toEqual({ path: '/ws/a', old_text: 'x', new_text: 'y' });
    expect(fromClaudeInput(tools, 'execute', { command: 'ls', description: 'list', timeout: 2000 })).toEqual({ command: 'ls', timeout_seconds: 2 });
    expect(fromClaudeInput(tools, 'grep', { pattern: 'x', path: '/ws/src', output_mode: 'content', '-i': true })).toEqual({ pattern: 'x', path: '/ws/src', case_insensitive: true });
  });

  it('matches exact names, | lists, unanchored regexes, and everything for empty or *', () => {
    expect(matcherMatches('Write', 'Write')).toBe(true);
    expect(matcherMatches('Write', 'WriteX')).toBe(false);
    expect(matcherMatches('Edit|Write', 'Write')).toBe(true);
    expect(matcherMatches('Edit|Write', 'Bash')).toBe(false);
    expect(matcherMatches('Edit.*', 'NotebookEdit')).toBe(true);
    expect(matcherMatches('^Edit$', 'NotebookEdit')).toBe(false);
    expect(matcherMatches('', 'Bash')).toBe(true);
    expect(matcherMatches('*', 'Bash')).toBe(true);
    expect(matcherMatches(undefined, 'Bash')).toBe(true);
    expect(matcherMatches('(', 'Bash')).toBe(false);
  });
});

describe('Claude Code dialect', () => {
  it('PreToolUse exit 2 blocks with stderr as the reason; the matcher selects the tool', async () => {
    writeSettings(projectSettings(), { PreToolUse: [{ matcher: 'Write|Edit', hooks: [cmd('exit2', 'policy')] }] });
    const { call, t } = await setup();
    const res = await call('write_file', { path: 'a.txt', content: 'x' });
    expect(res.error).toBe('blocked by hook zoo.sh: no writes here (policy)');
    expect(t.events.some((e) => e.event === 'on_blocked')).toBe(true);
    expect((await call('execute', { command: 'ls' })).error).toBeUndefined();
  });

  it('stdin carries the Claude fields with mapped names and absolute file paths', async () => {
    writeSettings(projectSettings(), {
      PreToolUse: [{ hooks: [exec('record', 'pre')] }],
      PostToolUse: [{ hooks: [exec('record', 'post')] }],
    });
    const { call, t } = await setup();
    t.ctx.state.messages.push({ role: 'assistant', content: 'ok' });
    await call('edit_file', { path: 'src/a.ts', old_text: 'a', new_text: 'b' });
    const pre = JSON.parse(readFileSync(join(sb.ws, 'claude-pre.json'), 'utf8'));
    expect(pre).toMatchObject({
      session_id: 'thread_1',
      cwd: sb.ws,
      hook_event_name: 'PreToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: join(sb.ws, 'src/a.ts'), old_string: 'a', new_string: 'b', replace_all: false },
      tool_use_id: 'tu_1',
      permission_mode: 'default',
    });
    expect(pre.transcript_path).toBe(join(sb.home, 'transcripts', 'thread_1.jsonl'));
    const lines = readFileSync(pre.transcript_path, 'utf8').trim().split('\n').map((l: string) => JSON.parse(l));
    expect(lines.map((l: { type: string; message: unknown }) => [l.type, l.message])).toEqual([
      ['user', { role: 'user', content: [{ type: 'text', text: 'hello' }] }],
      ['assistant', { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }],
    ]);
    expect(lines[1]).toMatchObject({ parentUuid: lines[0].uuid, sessionId: 'thread_1', cwd: sb.ws, timestamp: expect.any(String) });
    const post = JSON.parse(readFileSync(join(sb.ws, 'claude-post.json'), 'utf8'));
    expect(post).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_response: { filePath: join(sb.ws, 'src/a.ts'), oldString: 'a', newString: 'b', replaceAll: false },
    });
  });

  it('JSON permissionDecision deny blocks; parallel hooks resolve deny > ask > allow', async () => {
    writeSettings(projectSettings(), {
      PreToolUse: [
        { matcher: 'Bash', hooks: [exec('allow', '0.3'), exec('deny', 'D')] },
        { matcher: 'Bash', hooks: [exec('ask', 'A')] },
        { matcher: 'Read', hooks: [exec('ask', 'R'), exec('allow')] },
      ],
    });
    const { call, hookRuns } = await setup();
    expect((await call('execute', { command: 'ls' })).error).toBe('blocked by hook zoo.sh: denied by D');
    expect(hookRuns.rows.map((r) => r.decision).sort()).toEqual(['allow', 'ask', 'deny']);
    expect((await call('read_file', { path: 'a' })).error).toBe('blocked by hook zoo.sh: hook asked for confirmation: sure? (R)');
  });

  it('an ask decision on a tool call asks the user: allowed runs the tool, declined blocks it', async () => {
    writeSettings(projectSettings(), { PreToolUse: [{ matcher: 'Read', hooks: [exec('ask', 'R')] }] });
    const { call, t } = await setup();
    const asked: string[] = [];
    let answer: 'allow' | 'deny' = 'allow';
    (t.ctx as { askUser?: unknown }).askUser = async (c: { name: string }, reason: string) => {
      asked.push(`${c.name}: ${reason}`);
      return answer;
    };
    expect((await call('read_file', { path: 'a' })).error).toBeUndefined();
    answer = 'deny';
    expect((await call('read_file', { path: 'a' })).error).toBe('blocked by hook zoo.sh: hook asked for confirmation: sure? (R) (the user declined)');
    expect(asked).toEqual([
      'read_file: zoo.sh: hook asked for confirmation: sure? (R)',
      'read_file: zoo.sh: hook asked for confirmation: sure? (R)',
    ]);
  });

  it('PreCompact can veto a compaction; PostCompact gets the summary', async () => {
    writeSettings(projectSettings(), {
      PreCompact: [{ matcher: 'manual', hooks: [exec('exit2', 'keep history')] }, { matcher: 'auto', hooks: [exec('record', 'precompact')] }],
      PostCompact: [{ hooks: [exec('record', 'postcompact')] }],
    });
    const { hook, t } = await setup();
    expect(await hook!.onCompact!(t.ctx, { phase: 'pre', trigger: 'manual' })).toEqual({ blocked: true, reason: 'zoo.sh: no writes here (keep history)' });
    expect(await hook!.onCompact!(t.ctx, { phase: 'pre', trigger: 'auto' })).toEqual({});
    expect(JSON.parse(readFileSync(join(sb.ws, 'claude-precompact.json'), 'utf8'))).toMatchObject({ hook_event_name: 'PreCompact', trigger: 'auto' });
    await hook!.onCompact!(t.ctx, { phase: 'post', trigger: 'auto', summary: 'the gist' });
    expect(JSON.parse(readFileSync(join(sb.ws, 'claude-postcompact.json'), 'utf8'))).toMatchObject({ hook_event_name: 'PostCompact', compact_summary: 'the gist' });
  });

  it('after a compaction, SessionStart handlers matching compact run and what they say joins later requests', async () => {
    writeSettings(projectSettings(), { SessionStart: [{ matcher: 'compact', hooks: [exec('context')] }, { matcher: 'startup', hooks: [exec('record', 'startup')] }] });
    const { hook, t } = await setup();
    await hook!.beforeAgent!(t.ctx, t.ctx.state);
    expect(existsSync(join(sb.ws, 'claude-startup.json'))).toBe(true);
    const before = await hook!.modifyRequest!(t.ctx, requestOf([]));
    expect(before.system.join('\n')).not.toContain('the build uses make');
    await hook!.onCompact!(t.ctx, { phase: 'post', trigger: 'auto', summary: 'the gist' });
    const after = await hook!.modifyRequest!(t.ctx, requestOf([]));
    expect(after.system.join('\n')).toContain('remember: the build uses make');
  });

  it('matching handlers run in parallel', async () => {
    writeSettings(projectSettings(), { PreToolUse: [{ hooks: [exec('allow', '1'), exec('allow', '1.01'), exec('allow', '1.02')] }] });
    const { call } = await setup();
    const started = Date.now();
    expect((await call('execute', { command: 'ls' })).error).toBeUndefined();
    // Three 1 s hooks one after another would take 3 s or more.
    expect(Date.now() - started).toBeLessThan(2900);
  });

  it('many matching handlers all run, at most 8 at a time, and the slow one does not starve the rest', async () => {
    const handlers = [{ ...exec('sleep'), timeout: 1 }, ...Array.from({ length: 19 }, () => ({ command: ZOO_SH, args: ['allow', '0.1'] }))];
    // Distinct commands so identical handlers are not folded into one.
    handlers.forEach((h, i) => (h.args = [...(h.args ?? []), `#${i}`]));
    writeSettings(projectSettings(), { PreToolUse: [{ hooks: handlers }] });
    const { call, hookRuns } = await setup();
    expect((await call('execute', { command: 'ls' })).error).toBeUndefined();
    expect(hookRuns.rows).toHaveLength(20);
    expect(hookRuns.rows.filter((r) => r.timed_out)).toHaveLength(1);
  });

  it('updatedInput is mapped back and path-guarded', async () => {
    writeSettings(projectSettings(), { PreToolUse: [{ matcher: 'Write', hooks: [exec('rewrite', '/etc/passwd')] }] });
    const { call } = await setup();
    expect((await call('write_file', { path: 'a.txt', content: 'x' })).error).toMatch(/^blocked by hook claude-hooks: rewritten input refused: path outside workspace/);
    writeSettings(projectSettings(), { PreToolUse: [{ matcher: 'Write', hooks: [exec('rewrite', join(sb.ws, 'b.txt'))] }] });
    const again = await setup();
    const ran = JSON.stringify({ path: join(sb.ws, 'b.txt'), content: 'rewritten' });
    const res = await again.call('write_file', { path: 'a.txt', content: 'x' });
    expect(res.output).toBe(`(input changed by hook zoo.sh; ran with ${ran})\nwrite_file ran with ${ran}`);
    expect(res.rewritten?.by).toBe('zoo.sh');
  });

  it('UserPromptSubmit: exit 2 blocks the message, plain stdout adds context', async () => {
    writeSettings(projectSettings(), { UserPromptSubmit: [{ hooks: [exec('context')] }] });
    const a = await setup();
    expect(await a.hook!.onUserMessage!(a.t.ctx, 'hi')).toEqual({ blocked: false, additional_context: 'remember: the build uses make' });
    writeSettings(projectSettings(), { UserPromptSubmit: [{ hooks: [exec('context'), exec('exit2', 'prompt')] }] });
    const b = await setup();
    expect(await b.hook!.onUserMessage!(b.t.ctx, 'hi')).toEqual({ blocked: true, reason: 'no writes here (prompt)', by: 'zoo.sh' });
  });

  it('SessionStart context is a system block of every request', async () => {
    writeSettings(projectSettings(), { SessionStart: [{ matcher: 'startup', hooks: [exec('context')] }] });
    const { hook, t } = await setup();
    await hook!.beforeAgent!(t.ctx, t.ctx.state);
    const req = await hook!.modifyRequest!(t.ctx, requestOf([{ role: 'user', content: 'hi' }], ['base']));
    expect(req.system).toEqual(['base', '<session_start_hook_context>\nremember: the build uses make\n</session_start_hook_context>']);
    expect(req.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('Stop block continues the loop with the reason; stop_hook_active is set next time', async () => {
    writeSettings(projectSettings(), { Stop: [{ hooks: [exec('block-stop')] }] });
    const { hook, t, hookRuns } = await setup();
    expect(await hook!.onAgentStop!(t.ctx, t.ctx.state.messages)).toEqual({ follow_up_messages: ['please also write NOTES.md'] });
    expect(await hook!.onAgentStop!(t.ctx, t.ctx.state.messages)).toEqual({});
    expect(JSON.parse(hookRuns.rows[1].payload).stop_hook_active).toBe(true);
    expect(JSON.parse(hookRuns.rows[0].payload).stop_hook_active).toBe(false);
  });

  it('continue:false blocks a tool call but ends the loop on Stop', async () => {
    writeSettings(projectSettings(), { PreToolUse: [{ hooks: [exec('halt')] }], Stop: [{ hooks: [exec('block-stop'), exec('halt')] }] });
    const { call, hook, t } = await setup();
    expect((await call('execute', { command: 'ls' })).error).toBe('blocked by hook zoo.sh: halted by policy');
    expect(await hook!.onAgentStop!(t.ctx, t.ctx.state.messages)).toEqual({});
  });

  it('exit 1 is a non-blocking error unless fail-closed', async () => {
    writeSettings(projectSettings(), { PreToolUse: [{ hooks: [exec('exit1')] }] });
    const a = await setup();
    expect((await a.call('execute', { command: 'ls' })).error).toBeUndefined();
    expect(a.hookRuns.rows[0]).toMatchObject({ decision: 'error', exit_code: 1 });
    const id = a.user.infos[0].id;
    const b = await setup(settingsWith({ [id]: { fail_mode: 'closed' } }));
    expect((await b.call('execute', { command: 'ls' })).error).toMatch(/hook failed \(fail-closed\): exited with 1: oops/);
  });

  it('onFailure "block" makes a failure block the call: an unexpected exit, a timeout, a program that is not there; the Hooks tab override wins', async () => {
    writeSettings(projectSettings(), {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ ...exec('exit1'), onFailure: 'block' }] },
        { matcher: 'LS', hooks: [{ ...exec('sleep'), timeout: 1, onFailure: 'block' }] },
        { matcher: 'Glob', hooks: [{ command: join(sb.ws, 'no-such-guard.sh'), onFailure: 'block' }] },
        { matcher: 'Grep', hooks: [{ ...exec('exit1'), onFailure: 'continue' }] },
      ],
    });
    const a = await setup();
    expect(a.user.diagnostics).toEqual([]);
    expect((await a.call('execute', { command: 'ls' })).error).toMatch(/hook failed \(fail-closed\): exited with 1: oops/);
    expect((await a.call('ls', {})).error).toMatch(/hook failed \(fail-closed\): hook timed out/);
    expect((await a.call('glob', { pattern: '*' })).error).toMatch(/hook failed \(fail-closed\): exited with 127/);
    expect((await a.call('grep', { pattern: 'x' })).error).toBeUndefined();
    const listed = await listUserHooks({ workspace: sb.ws, home: sb.home, settings: settingsWith(), trusted: true });
    expect(listed.filter((h) => h.dialect === 'claude').map((h) => h.fail_mode)).toEqual(['closed', 'closed', 'closed', 'open']);
    const id = a.user.infos[0].id;
    const b = await setup(settingsWith({ [id]: { fail_mode: 'open' } }));
    expect((await b.call('execute', { command: 'ls' })).error).toBeUndefined();
  });

  it('onFailure "block" is ignored where Claude Code ignores it — on Stop and TaskCompleted, on an async handler — and said', async () => {
    writeSettings(projectSettings(), {
      Stop: [{ hooks: [{ ...exec('exit1'), onFailure: 'block' }] }],
      TaskCompleted: [{ hooks: [{ ...exec('exit1'), onFailure: 'block' }] }],
      PreToolUse: [{ hooks: [{ ...exec('exit1'), onFailure: 'block', async: true }] }],
    });
    const { user, call } = await setup();
    const file = projectSettings();
    expect(user.diagnostics).toEqual([
      `${file}: Stop[0].hooks[0]: not blocking (onFailure: "block" is ignored on Stop)`,
      `${file}: TaskCompleted[0].hooks[0]: not blocking (onFailure: "block" is ignored on TaskCompleted)`,
      `${file}: PreToolUse[0].hooks[0]: not blocking (onFailure: "block" is ignored on a handler that runs in the background)`,
    ]);
    expect(user.infos.map((i) => i.fail_mode)).toEqual(['open', 'open', 'open']);
    expect((await call('execute', { command: 'ls' })).error).toBeUndefined();
  });

  it('a misspelt onFailure is read as "block", and said', async () => {
    writeSettings(projectSettings(), { PreToolUse: [{ hooks: [{ ...exec('exit1'), onFailure: 'deny' }] }] });
    const { user, call } = await setup();
    expect(user.diagnostics).toEqual([`${projectSettings()}: PreToolUse[0].hooks[0]: "onFailure" must be "block" or "continue"; "deny" is read as "block"`]);
    expect((await call('execute', { command: 'ls' })).error).toMatch(/hook failed \(fail-closed\)/);
  });

  it('timeout in seconds is honoured (and overridable)', async () => {
    writeSettings(projectSettings(), { PreToolUse: [{ hooks: [{ ...exec('sleep'), timeout: 1 }] }] });
    const { call, hookRuns } = await setup();
    const started = Date.now();
    expect((await call('execute', { command: 'ls' })).error).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000 + 2000 + 4000);
    expect(hookRuns.rows[0].timed_out).toBe(true);
  });

  it("without a timeout a handler gets Claude Code's defaults: 10 minutes, 30 s for UserPromptSubmit", async () => {
    writeSettings(projectSettings(), { PreToolUse: [{ hooks: [exec('allow')] }], UserPromptSubmit: [{ hooks: [exec('context'), { ...exec('context', 'b'), timeout: 5 }] }] });
    const { user } = await setup();
    expect(user.infos.map((i) => [i.events[0], i.timeout_ms])).toEqual([
      ['PreToolUse', 600_000],
      ['UserPromptSubmit', 30_000],
      ['UserPromptSubmit', 5_000],
    ]);
  });

  it('SessionEnd runs at the end of a run, after a cancel too, told why the run ended', async () => {
    writeSettings(projectSettings(), { SessionEnd: [{ matcher: 'prompt_input_exit', hooks: [exec('record', 'end')] }] });
    const { hook, t } = await setup();
    await hook!.afterAgent!(t.ctx, { stop_reason: 'completed' } as never);
    expect(existsSync(join(sb.ws, 'claude-end.json'))).toBe(false);
    const controller = new AbortController();
    controller.abort();
    await hook!.afterAgent!({ ...t.ctx, signal: controller.signal }, { stop_reason: 'cancelled' } as never);
    expect(JSON.parse(readFileSync(join(sb.ws, 'claude-end.json'), 'utf8'))).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'prompt_input_exit', stop_reason: 'cancelled' });
  });

  it('shell form and ${CLAUDE_PROJECT_DIR}; env has the project dir and no secrets', async () => {
    process.env.ANTHROPIC_API_KEY = 'sk-ant-canary';
    try {
      writeSettings(projectSettings(), { SessionStart: [{ hooks: [{ command: '"${CLAUDE_PROJECT_DIR}/../z.sh" env' }] }] });
      writeFileSync(join(sb.ws, '..', 'z.sh'), readFileSync(ZOO_SH), { mode: 0o755 });
      const { hook, t } = await setup();
      await hook!.beforeAgent!(t.ctx, t.ctx.state);
      const env = readFileSync(join(sb.ws, 'claude-env.txt'), 'utf8');
      expect(env).toContain(`CLAUDE_PROJECT_DIR=${sb.ws}`);
      expect(env).toContain(`WORKBENCH_PROJECT_DIR=${sb.ws}`);
      expect(env).not.toContain('sk-ant-canary');
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
    }
  });

  it('reads all four settings files; untrusted workspace files do not run; user settings do', async () => {
    writeSettings(projectSettings(), { PreToolUse: [{ hooks: [exec('record', 'project')] }] });
    writeSettings(join(sb.ws, '.claude', 'settings.local.json'), { PreToolUse: [{ hooks: [exec('record', 'local')] }] });
    writeSettings(join(sb.ws, '.workbench', 'settings.json'), { PreToolUse: [{ hooks: [exec('record', 'wb')] }] });
    writeSettings(join(sb.home, 'settings.json'), { PreToolUse: [{ hooks: [exec('record', 'user')] }] });
    const infos = await listUserHooks({ workspace: sb.ws, home: sb.home, settings: settingsWith(), trusted: false });
    expect(infos.map((i) => [i.source, i.trusted])).toEqual([
      ['claude-settings', false],
      ['claude-settings', false],
      ['claude-settings', false],
      ['user', true],
    ]);
    const { call } = await setup(settingsWith(), false);
    await call('execute', { command: 'ls' });
    expect(['project', 'local', 'wb'].some((n) => existsSync(join(sb.ws, `claude-${n}.json`)))).toBe(false);
    expect(existsSync(join(sb.ws, 'claude-user.json'))).toBe(true);
    const trusted = await setup();
    await trusted.call('execute', { command: 'ls' });
    expect(['project', 'local', 'wb'].every((n) => existsSync(join(sb.ws, `claude-${n}.json`)))).toBe(true);
  });

  it('hook_overrides[id].enabled=false switches one handler off; ids are stable', async () => {
    writeSettings(projectSettings(), { PreToolUse: [{ matcher: 'Bash', hooks: [exec('deny', 'D')] }] });
    const first = await listUserHooks({ workspace: sb.ws, home: sb.home, settings: settingsWith(), trusted: true });
    const id = first[0].id;
    expect(id).toBe(`claude:${projectSettings()}#PreToolUse/0/0`);
    expect(first[0]).toMatchObject({ matcher: 'Bash', events: ['PreToolUse'], dialect: 'claude', enabled: true });
    const off = await setup(settingsWith({ [id]: { enabled: false } }));
    expect(off.hook).toBeUndefined();
    expect(off.user.infos[0]).toMatchObject({ id, enabled: false });
  });

  it('bad JSON in a settings file is a listed problem and a diagnostic', async () => {
    mkdirSync(join(sb.ws, '.claude'), { recursive: true });
    writeFileSync(projectSettings(), '{ "hooks": ');
    writeSettings(join(sb.home, 'settings.json'), { Nope: [{ hooks: [exec('deny')] }], PreToolUse: [{ hooks: [{ type: 'lambda', command: 'x' }, { ...exec('deny'), once: true }] }] });
    const { user } = await setup();
    expect(user.infos.map((i) => i.problem)).toEqual([expect.stringMatching(/bad JSON/), expect.stringMatching(/unsupported event "Nope"/), expect.stringMatching(/handler type "lambda" is not supported/), '"once" is for the hooks of a skill']);
    expect(user.diagnostics).toHaveLength(4);
    expect(user.hooks).toEqual([]);
  });

  it('identical handlers in two files run once', async () => {
    writeSettings(projectSettings(), { PreToolUse: [{ hooks: [exec('record', 'same')] }] });
    writeSettings(join(sb.home, 'settings.json'), { PreToolUse: [{ hooks: [exec('record', 'same')] }] });
    const { call, hookRuns } = await setup();
    await call('execute', { command: 'ls' });
    expect(hookRuns.rows).toHaveLength(1);
  });
});

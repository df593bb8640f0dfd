/**
 * MCP servers through a whole run: a real SDK server over stdio (a trusted workspace's `.mcp.json`)
 * and over Streamable HTTP (settings), the scripted model calling `mcp__<server>__<tool>`, a crash
 * restarted, an untrusted workspace's servers never started, approval, a `mcp__.*` hook matcher,
 * Claude Code's own `~/.claude.json` servers and its switches.
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync, chmodSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../../src/main/api/workbench.ts';
import type { Workbench } from '../../../src/main/api/types.ts';
import type { ApprovalMode, StreamEvent } from '../../../src/shared/types/index.ts';
import { createTrustStore } from '../../../src/main/user-hooks/index.ts';
import {
  createScriptedLlm,
  type ScriptedLlm,
  type ScriptedTurn,
} from '../../helpers/scripted-llm.ts';
import { sandbox, type Sandbox } from '../../unit/user-hooks/helpers.ts';
import {
  DEMO_MCP_SERVER,
  startMcpHttpServer,
  type McpHttpServer,
} from '../../helpers/mcp-http-server.ts';

let sb: Sandbox;
let wb: Workbench | undefined;
let http: McpHttpServer;
const realHome = process.env.HOME;
const realConfigDir = process.env.CLAUDE_CONFIG_DIR;

beforeAll(async () => {
  http = await startMcpHttpServer();
});
afterAll(async () => {
  await http.close();
});
beforeEach(() => {
  sb = sandbox();
  process.env.HOME = sb.home;
  delete process.env.CLAUDE_CONFIG_DIR;
});
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  process.env.HOME = realHome;
  if (realConfigDir !== undefined) process.env.CLAUDE_CONFIG_DIR = realConfigDir;
  delete process.env.LEAKY_SECRET_TOKEN;
  sb.cleanup();
});

function mcpJson(servers: Record<string, unknown>): void {
  writeFileSync(join(sb.ws, '.mcp.json'), JSON.stringify({ mcpServers: servers }));
}
const demo = (env: Record<string, string> = {}) => ({
  command: process.execPath,
  args: [DEMO_MCP_SERVER],
  env,
});
const call = (name: string, args: Record<string, unknown> = {}): ScriptedTurn => ({
  toolCalls: [{ name, args }],
});

async function run(
  turns: ScriptedTurn[],
  o: {
    approvalMode?: ApprovalMode;
    trusted?: boolean;
    settings?: Record<string, unknown>;
    text?: string;
  } = {},
): Promise<{ llm: ScriptedLlm; events: StreamEvent[]; threadId: string }> {
  if (o.trusted !== false) await createTrustStore(sb.home).trust(sb.ws);
  if (o.settings) writeFileSync(join(sb.home, 'settings.json'), JSON.stringify(o.settings));
  const llm = createScriptedLlm(turns);
  wb = await createWorkbench({ home: sb.home, workspace: sb.ws, llm, interactive: false });
  const events: StreamEvent[] = [];
  wb.subscribe((e) => events.push(e));
  const handle = await wb.chat.send({
    text: o.text ?? 'go',
    approvalMode: o.approvalMode ?? 'auto',
  });
  const done = await handle.finished;
  expect(done.stop_reason).toBe('completed');
  llm.assertComplete();
  const threadId = events.find((e) => e.thread_id)!.thread_id!;
  return { llm, events, threadId };
}

/** What the model saw of the tool results, in order. */
const toolResults = (llm: ScriptedLlm) =>
  llm.calls
    .at(-1)!
    .request.messages.filter((m) => m.role === 'tool')
    .map((m) => m.content);
const offered = (llm: ScriptedLlm) => llm.calls[0].request.tools.map((t) => t.name);
const toolEnds = (events: StreamEvent[]) =>
  events.flatMap((e) => (e.event === 'on_tool_end' ? [e.data] : []));

describe('MCP servers', () => {
  it('offers a stdio server of a trusted workspace and maps its results (text, structured content, images)', async () => {
    process.env.LEAKY_SECRET_TOKEN = 'do-not-pass';
    mcpJson({ demo: demo({ DEMO_VAR: '${DEMO_UNSET_VAR:-from-default}' }) });
    const { llm } = await run([
      call('mcp__demo__echo', { text: 'hello' }),
      call('mcp__demo__add', { a: 2, b: 3 }),
      call('mcp__demo__picture'),
      call('mcp__demo__env'),
      { text: 'done' },
    ]);
    const echo = llm.calls[0].request.tools.find((t) => t.name === 'mcp__demo__echo');
    expect(echo?.description).toBe('Echoes the text');
    expect(echo?.parameters).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
    });
    const [e, add, picture, env] = toolResults(llm);
    expect(e).toBe('echo: hello');
    expect(JSON.parse(add)).toEqual({ sum: 5 });
    expect(picture).toBe('here it is\n[image: image/png, 10 bytes]');
    const seen = JSON.parse(env) as Record<string, unknown>;
    expect(seen.DEMO_VAR).toBe('from-default');
    expect(seen.LEAKY_SECRET_TOKEN).toBeNull();
    expect(seen.cwd).toBe(sb.ws);
    // The server ends with the workbench.
    await wb!.close();
    wb = undefined;
    expect(() => process.kill(seen.pid as number, 0)).toThrow(/ESRCH/);
  });

  it("stops a workspace's own servers as soon as its trust is revoked", async () => {
    mcpJson({ demo: demo() });
    const { llm } = await run([call('mcp__demo__env'), { text: 'done' }]);
    const pid = (JSON.parse(toolResults(llm)[0]!) as { pid: number }).pid;
    expect(() => process.kill(pid, 0)).not.toThrow();
    await wb!.trust.set({ workspace: sb.ws, trusted: false });
    await expect
      .poll(() => {
        try {
          process.kill(pid, 0);
          return 'running';
        } catch {
          return 'gone';
        }
      })
      .toBe('gone');
    expect((await wb!.mcp.list({})).servers).toEqual([]);
  });

  it('never starts the servers of an untrusted workspace, says so, and lists them in the trust prompt', async () => {
    mcpJson({ demo: { ...demo(), args: [DEMO_MCP_SERVER, '${MCP_TEST_SECRET}'] } });
    process.env.MCP_TEST_SECRET = 'expanded-secret';
    const { llm, events } = await run([{ text: 'nothing to do' }], { trusted: false });
    delete process.env.MCP_TEST_SECRET;
    expect(offered(llm).filter((n) => n.startsWith('mcp__'))).toEqual([]);
    const listing = await wb!.mcp.list({});
    expect(listing.servers).toEqual([]);
    expect(listing.diagnostics[0]).toMatch(/\.mcp\.json ignored: the workspace is not trusted/);
    const diagnostics = events.flatMap((e) => (e.event === 'error' ? [e.data.message] : []));
    expect(diagnostics.some((m) => m.includes('.mcp.json ignored'))).toBe(true);
    const trust = await wb!.trust.status({ workspace: sb.ws });
    const item = trust.items.find((i) => i.kind === 'mcp_servers');
    expect(item?.detail).toBe(`demo: ${process.execPath} ${DEMO_MCP_SERVER} \${MCP_TEST_SECRET}`);
  });

  it('calls a Streamable HTTP server from settings', async () => {
    const { llm } = await run([call('mcp__web__echo', { text: 'over http' }), { text: 'done' }], {
      settings: { mcp_servers: { web: { type: 'http', url: http.url } } },
    });
    expect(toolResults(llm)).toEqual(['echo: over http']);
    const listing = await wb!.mcp.list({});
    expect(listing.servers[0]).toMatchObject({ name: 'web', source: 'user', status: 'connected' });
  });

  it('tells a server the workspace is its root (MCP roots), as Claude Code tells its folder', async () => {
    mcpJson({ demo: demo() });
    const { llm } = await run([call('mcp__demo__roots'), { text: 'done' }]);
    expect(JSON.parse(toolResults(llm)[0]!)).toEqual([
      { uri: pathToFileURL(sb.ws).href, name: basename(sb.ws) },
    ]);
  });

  it("tells a server the working directories Claude Code's additionalDirectories add, as its roots too", async () => {
    mcpJson({ demo: demo() });
    const lib = join(sb.ws, '..', 'shared-lib');
    mkdirSync(lib);
    mkdirSync(join(sb.ws, '.claude'));
    writeFileSync(
      join(sb.ws, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { additionalDirectories: ['../shared-lib'] } }),
    );
    const { llm } = await run([call('mcp__demo__roots'), { text: 'done' }]);
    const real = realpathSync(lib);
    expect(JSON.parse(toolResults(llm)[0]!)).toEqual([
      { uri: pathToFileURL(sb.ws).href, name: basename(sb.ws) },
      { uri: pathToFileURL(real).href, name: 'shared-lib' },
    ]);
  });

  it("offers the servers' resources through list_mcp_resources and read_mcp_resource (Claude Code's resource tools)", async () => {
    mcpJson({ demo: demo() });
    const { llm } = await run([
      call('list_mcp_resources'),
      call('read_mcp_resource', { server: 'demo', uri: 'demo://readme' }),
      call('read_mcp_resource', { server: 'demo', uri: 'demo://logo' }),
      call('read_mcp_resource', { server: 'demo', uri: 'demo://missing' }),
      call('read_mcp_resource', { server: 'nope', uri: 'demo://readme' }),
      { text: 'done' },
    ]);
    expect(offered(llm)).toEqual(
      expect.arrayContaining(['list_mcp_resources', 'read_mcp_resource']),
    );
    const [listed, readme, logo, missing, nope] = toolResults(llm);
    expect(JSON.parse(listed!)).toEqual({
      resources: [
        {
          server: 'demo',
          uri: 'demo://readme',
          name: 'readme',
          title: 'Demo readme',
          description: 'What the demo server is',
          mimeType: 'text/markdown',
        },
        { server: 'demo', uri: 'demo://logo', name: 'logo', mimeType: 'image/png' },
      ],
    });
    expect(readme).toBe('# Demo\nA server for tests.');
    expect(logo).toBe('[binary: image/png, 10 bytes]');
    expect(missing).toMatch(/MCP server "demo" could not read demo:\/\/missing: .*not found/i);
    expect(nope).toMatch(/no MCP server "nope" with resources; these have some: demo/);
  });

  it("reads a resource the person mentions (@server:uri), as Claude Code does, before the model's first turn", async () => {
    mcpJson({ demo: demo() });
    const { llm } = await run([{ text: 'done' }], { text: 'summarise @demo:demo://readme.' });
    const first = llm.calls[0]!.request.messages;
    expect(first.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(first[1]!.tool_calls!.map((c) => [c.name, c.args])).toEqual([
      ['read_mcp_resource', { server: 'demo', uri: 'demo://readme' }],
    ]);
    expect(first[2]!.content).toBe('# Demo\nA server for tests.');
    // The composer completes them once the server runs: by URI, name or title, any case.
    const complete = (query: string) => wb!.mcp.resourceMentions({ query });
    expect(await complete('')).toEqual(['demo:demo://readme', 'demo:demo://logo']);
    expect(await complete('README')).toEqual(['demo:demo://readme']);
    expect(await complete('demo:demo://l')).toEqual(['demo:demo://logo']);
    expect(await complete('nothing like it')).toEqual([]);
  });

  it('completes no resource of a server that is not running: completing never starts one', async () => {
    mcpJson({ demo: demo() });
    await createTrustStore(sb.home).trust(sb.ws);
    wb = await createWorkbench({ home: sb.home, workspace: sb.ws, llm: createScriptedLlm([]) });
    expect(await wb.mcp.resourceMentions({ query: '' })).toEqual([]);
    // The MCP panel's listing starts the workspace's servers; from then on they complete.
    await wb.mcp.list({});
    expect(await wb.mcp.resourceMentions({ query: 'logo' })).toEqual(['demo:demo://logo']);
  });

  it('takes what a server adds while it runs (MCP list_changed): tools from the next request on, prompts and resources at once', async () => {
    mcpJson({ demo: demo() });
    await createTrustStore(sb.home).trust(sb.ws);
    const llm = createScriptedLlm([{ text: 'hello' }]);
    wb = await createWorkbench({ home: sb.home, workspace: sb.ws, llm, interactive: false });
    const w = wb;
    const send = async (threadId?: string) => {
      const handle = await w.chat.send({ text: 'go', threadId, approvalMode: 'auto' });
      await handle.finished;
      return handle.threadId;
    };
    const threadId = await send();
    const names = async () => (await w.recipes.list()).map((r) => r.name);
    // Listed (and kept for 30 s) before the server grows.
    expect(await w.mcp.resourceMentions({ query: '' })).toEqual([
      'demo:demo://readme',
      'demo:demo://logo',
    ]);
    expect(await names()).not.toContain('mcp__demo__grown');

    // In one run: the call that grows the server is answered once its new tools are listed, so
    // the very next request offers the new one and the model can call it.
    llm.push(call('mcp__demo__grow'), call('mcp__demo__grown'), { text: 'done' });
    await send(threadId);
    const offeredAt = (i: number) => llm.calls[i]!.request.tools.map((t) => t.name);
    expect(offeredAt(1)).not.toContain('mcp__demo__grown');
    expect(offeredAt(2)).toContain('mcp__demo__grown');
    expect(toolResults(llm).slice(-2)).toEqual(['grew', 'grown here']);
    await expect.poll(names).toContain('mcp__demo__grown');
    await expect
      .poll(() => w.mcp.resourceMentions({ query: 'grown' }))
      .toEqual(['demo:demo://grown']);
  });

  it('offers no resource tools in a run without a server that has resources', async () => {
    const { llm } = await run([{ text: 'done' }]);
    expect(offered(llm)).not.toContain('list_mcp_resources');
    expect(offered(llm)).not.toContain('read_mcp_resource');
  });

  it("runs a server's prompt as Claude Code's /mcp__server__prompt command: arguments in order, listed in the composer, UserPromptExpansion told", async () => {
    mcpJson({ demo: demo() });
    const log = join(sb.ws, 'expansion.json');
    mkdirSync(join(sb.ws, '.claude'), { recursive: true });
    writeFileSync(
      join(sb.ws, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          UserPromptExpansion: [
            { matcher: 'mcp__demo__greet', hooks: [{ type: 'command', command: `cat > ${log}` }] },
          ],
        },
      }),
    );
    const { llm } = await run([{ text: 'hello Ada' }], {
      text: '/mcp__demo__greet Ada "very warmly"',
    });
    expect(llm.calls[0].request.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'Greet Ada very warmly.',
    });
    expect(JSON.parse(readFileSync(log, 'utf8'))).toMatchObject({
      expansion_type: 'mcp_prompt',
      command_source: 'mcp',
      command_name: 'mcp__demo__greet',
      command_args: 'Ada "very warmly"',
    });
    // Once its server runs, the composer's / list has the prompt.
    expect(await wb!.recipes.list()).toContainEqual({
      name: 'mcp__demo__greet',
      description: 'Greets someone',
      argument_hint: 'NAME [STYLE]',
      source: 'mcp',
    });
    await expect(
      wb!.chat.send({ text: '/mcp__demo__greet', approvalMode: 'auto' }),
    ).rejects.toThrow('/mcp__demo__greet needs name (/mcp__demo__greet NAME [STYLE])');
  });

  it('restarts a crashed server, and the trace shows the crash and the restart', async () => {
    mcpJson({ demo: demo() });
    const { llm, events, threadId } = await run([
      call('mcp__demo__crash'),
      call('mcp__demo__echo', { text: 'after the crash' }),
      { text: 'done' },
    ]);
    const [crash, echo] = toolEnds(events);
    expect(crash.status).toBe('error');
    expect(echo.status).toBe('ok');
    expect(toolResults(llm)[1]).toBe('echo: after the crash');
    const names = wb!.trace.list({ threadId }).flatMap((s) => s.events.map((e) => e.name));
    expect(names).toEqual(
      expect.arrayContaining([
        'mcp.connected',
        'mcp.tools_listed',
        'mcp.crashed',
        'mcp.restarting',
      ]),
    );
    const stderr = wb!.trace
      .list({ threadId })
      .flatMap((s) =>
        s.events.filter((e) => e.name === 'mcp.stderr').map((e) => e.attributes?.message),
      );
    expect(stderr).toContain('demo server: crashing on purpose');
  });

  it('asks approval like a write unless the server is read-only; switched-off tools are not offered', async () => {
    mcpJson({ demo: demo() });
    const first = await run([call('mcp__demo__echo', { text: 'x' }), { text: 'done' }], {
      approvalMode: 'ask',
    });
    expect(toolEnds(first.events)[0].status).toBe('denied');
    await wb!.mcp.set({ server: 'demo', read_only: true, tool: { name: 'crash', enabled: false } });
    await wb!.close();
    const second = await run([call('mcp__demo__echo', { text: 'x' }), { text: 'done' }], {
      approvalMode: 'ask',
    });
    expect(toolEnds(second.events)[0].status).toBe('ok');
    expect(offered(second.llm)).not.toContain('mcp__demo__crash');
    const listing = await wb!.mcp.list({});
    expect(listing.servers[0]).toMatchObject({ read_only: true, status: 'connected' });
    expect(listing.servers[0].tools.find((t) => t.name === 'crash')?.enabled).toBe(false);
  });

  it('a Claude Code PreToolUse hook with matcher mcp__.* sees the call under its MCP name', async () => {
    mcpJson({ demo: demo() });
    const log = join(sb.ws, 'hook-input.json');
    const hook = join(sb.ws, '.claude', 'log-input.mjs');
    mkdirSync(join(sb.ws, '.claude'), { recursive: true });
    const script = [
      '#!/usr/bin/env node',
      "import { writeFileSync } from 'node:fs';",
      "let input = '';",
      "process.stdin.on('data', (d) => (input += d));",
      `process.stdin.on('end', () => writeFileSync(${JSON.stringify(log)}, input));`,
    ];
    writeFileSync(hook, script.join('\n'));
    chmodSync(hook, 0o755);
    writeFileSync(
      join(sb.ws, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'mcp__.*', hooks: [{ type: 'command', command: hook }] }],
        },
      }),
    );
    await run([call('mcp__demo__echo', { text: 'seen' }), { text: 'done' }]);
    const input = JSON.parse(readFileSync(log, 'utf8')) as Record<string, unknown>;
    expect(input).toMatchObject({ tool_name: 'mcp__demo__echo', tool_input: { text: 'seen' } });
  });

  it("a PostToolUse hook's updatedMCPToolOutput is what the model reads of an MCP result (a redaction), not of a built-in tool's", async () => {
    mcpJson({ demo: demo() });
    writeFileSync(join(sb.ws, 'notes.txt'), 'plain notes');
    const answer = (output: unknown) =>
      `cat >/dev/null; printf '%s' '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: output } })}'`;
    mkdirSync(join(sb.ws, '.claude'), { recursive: true });
    writeFileSync(
      join(sb.ws, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PostToolUse: [
            {
              matcher: 'mcp__demo__echo|Read',
              hooks: [{ command: answer([{ type: 'text', text: '[redacted]' }]) }],
            },
            { matcher: 'mcp__demo__add', hooks: [{ command: answer('withheld by policy') }] },
          ],
        },
      }),
    );
    const { llm } = await run([
      {
        toolCalls: [
          { name: 'mcp__demo__echo', args: { text: 'sk-live-secret' } },
          { name: 'mcp__demo__add', args: { a: 1, b: 2 } },
          { name: 'read_file', args: { path: 'notes.txt' } },
        ],
      },
      { text: 'done' },
    ]);
    const [echo, add, read] = toolResults(llm).map(String);
    expect(echo).toBe('[redacted]');
    expect(add).toBe('withheld by policy');
    expect(read).toContain('plain notes');
  });

  it('an MCP error result names its kind; agent.yaml retries apply to MCP tools', async () => {
    mcpJson({ demo: demo() });
    mkdirSync(join(sb.ws, '.workbench'), { recursive: true });
    writeFileSync(
      join(sb.ws, '.workbench', 'agent.yaml'),
      'retries:\n  "mcp__demo__*": { max_attempts: 3, backoff: 0 }\n',
    );
    const { events } = await run([
      call('mcp__demo__flaky', { key: 'a', failures: 2 }),
      call('mcp__demo__fail', { kind: 'cancel' }),
      call('mcp__demo__flaky', { key: 'b', failures: 4, kind: 'snooze' }),
      { text: 'done' },
    ]);
    const [flaky, cancelled, snoozed] = toolEnds(events);
    expect(flaky).toMatchObject({
      status: 'ok',
      output: 'flaky ok on call 3',
      attempts: { n: 3, max: 3 },
    });
    expect(cancelled).toMatchObject({
      status: 'error',
      error: 'failed (cancel)',
      attempts: { n: 1, max: 3 },
    });
    expect(snoozed).toMatchObject({
      status: 'ok',
      output: 'flaky ok on call 5',
      attempts: { n: 1, max: 3 },
    });
  });

  it('a call past its deadline fails and the server keeps serving', async () => {
    mcpJson({ demo: demo() });
    const { events } = await run(
      [
        call('mcp__demo__slow', { ms: 3_000 }),
        call('mcp__demo__echo', { text: 'still here' }),
        { text: 'done' },
      ],
      { settings: { mcp_overrides: { demo: { timeout_ms: 200 } } } },
    );
    const [slow, echo] = toolEnds(events);
    expect(slow).toMatchObject({ status: 'error', error: 'no answer within 200 ms' });
    expect(slow.duration_ms).toBeLessThan(2_000);
    expect(echo).toMatchObject({ status: 'ok', output: 'echo: still here' });
  });

  it("runs Claude Code's servers from ~/.claude.json: user scope everywhere, local scope over the project's; its /mcp switch-off holds until switched on here", async () => {
    writeFileSync(
      join(sb.home, '.claude.json'),
      JSON.stringify({
        numStartups: 12,
        mcpServers: {
          everywhere: demo({ DEMO_VAR: 'user scope' }),
          web: { type: 'streamable-http', url: http.url },
        },
        projects: {
          [realpathSync(sb.ws)]: {
            allowedTools: [],
            mcpServers: { demo: demo({ DEMO_VAR: 'local scope' }) },
            disabledMcpServers: ['web'],
          },
          '/some/other/project': { mcpServers: { other: demo() } },
        },
      }),
    );
    mcpJson({ demo: demo({ DEMO_VAR: 'project scope' }) });
    const { llm } = await run([
      call('mcp__demo__env'),
      call('mcp__everywhere__env'),
      { text: 'done' },
    ]);
    const [local, user] = toolResults(llm).map((r) => JSON.parse(r!) as { DEMO_VAR: string });
    expect([local.DEMO_VAR, user.DEMO_VAR]).toEqual(['local scope', 'user scope']);
    const mcpTools = offered(llm).filter((n) => n.startsWith('mcp__'));
    expect(mcpTools.some((n) => n.startsWith('mcp__web__') || n.startsWith('mcp__other__'))).toBe(
      false,
    );
    const listing = await wb!.mcp.list({});
    const byName = Object.fromEntries(listing.servers.map((s) => [s.name, s]));
    expect(Object.keys(byName).sort()).toEqual(['demo', 'everywhere', 'web']);
    expect(byName.demo).toMatchObject({ from: '~/.claude.json, this folder', status: 'connected' });
    expect(byName.everywhere).toMatchObject({ from: '~/.claude.json', status: 'connected' });
    expect(byName.web).toMatchObject({ enabled: false, status: 'disabled' });
    expect(byName.web!.off).toBe(
      `switched off for this folder in ${join(sb.home, '.claude.json')} (disabledMcpServers)`,
    );
    // Switched on in Settings, it starts (over Streamable HTTP, named as the specification names it).
    const on = await wb!.mcp.set({ server: 'web', enabled: true });
    expect(on.servers.find((s) => s.name === 'web')).toMatchObject({
      enabled: true,
      status: 'connected',
    });
  });

  it("a .mcp.json server rejected in Claude Code (disabledMcpjsonServers) does not start; a broken ~/.claude.json is reported and settings' servers still run", async () => {
    writeFileSync(join(sb.home, '.claude.json'), '{"mcpServers": {"half-writ');
    mcpJson({ demo: demo(), kept: demo() });
    mkdirSync(join(sb.ws, '.claude'), { recursive: true });
    const rejecting = join(sb.ws, '.claude', 'settings.local.json');
    writeFileSync(rejecting, JSON.stringify({ disabledMcpjsonServers: ['demo'] }));
    const { llm, events } = await run([call('mcp__kept__echo', { text: 'ok' }), { text: 'done' }], {
      settings: { mcp_servers: { web: { type: 'http', url: http.url } } },
    });
    expect(toolResults(llm)).toEqual(['echo: ok']);
    const mcpTools = offered(llm).filter((n) => n.startsWith('mcp__'));
    expect(mcpTools.some((n) => n.startsWith('mcp__demo__'))).toBe(false);
    expect(mcpTools).toContain('mcp__web__echo');
    const diagnostics = events.flatMap((e) => (e.event === 'error' ? [e.data.message] : []));
    expect(diagnostics).toContainEqual(
      expect.stringMatching(/\.claude\.json: cannot read its MCP servers: .*JSON/),
    );
    const demoInfo = (await wb!.mcp.list({})).servers.find((s) => s.name === 'demo');
    expect(demoInfo).toMatchObject({ enabled: false, status: 'disabled', from: '.mcp.json' });
    expect(demoInfo!.off).toBe(`rejected in ${rejecting} (disabledMcpjsonServers)`);
  });

  it("starts an enabled Claude Code plugin's servers (its .mcp.json and plugin.json) under Claude Code's names, with CLAUDE_PLUGIN_ROOT", async () => {
    const claudeDir = join(sb.home, '.claude');
    process.env.CLAUDE_CONFIG_DIR = claudeDir;
    const root = join(claudeDir, 'plugins', 'cache', 'market', 'dbtools', '1.0.0');
    mkdirSync(join(root, '.claude-plugin'), { recursive: true });
    writeFileSync(
      join(root, '.mcp.json'),
      JSON.stringify({ db: demo({ DEMO_VAR: 'root is ${CLAUDE_PLUGIN_ROOT}' }) }),
    );
    writeFileSync(
      join(root, '.claude-plugin', 'plugin.json'),
      JSON.stringify({ name: 'dbtools', mcpServers: { api: demo() } }),
    );
    writeFileSync(
      join(claudeDir, 'plugins', 'installed_plugins.json'),
      JSON.stringify({
        version: 2,
        plugins: { 'dbtools@market': [{ scope: 'user', installPath: root }] },
      }),
    );
    writeFileSync(
      join(claudeDir, 'settings.json'),
      JSON.stringify({ enabledPlugins: { 'dbtools@market': true } }),
    );
    const { llm } = await run([
      call('mcp__plugin_dbtools_db__env'),
      call('mcp__plugin_dbtools_api__echo', { text: 'from the manifest' }),
      { text: 'done' },
    ]);
    const [env, echo] = toolResults(llm);
    expect((JSON.parse(env!) as { DEMO_VAR: string }).DEMO_VAR).toBe(`root is ${root}`);
    expect(echo).toBe('echo: from the manifest');
    const listing = await wb!.mcp.list({});
    expect(listing.servers.map((sv) => [sv.name, sv.from, sv.status])).toEqual([
      ['plugin:dbtools:db', 'plugin dbtools', 'connected'],
      ['plugin:dbtools:api', 'plugin dbtools', 'connected'],
    ]);
  });

  it("keeps Claude Code's server deny and allow lists: a denied or unlisted server never starts, even switched on in Settings", async () => {
    const managed = join(sb.home, '..', 'managed-settings.json');
    process.env.WORKBENCH_CLAUDE_MANAGED_SETTINGS = managed;
    try {
      writeFileSync(
        managed,
        JSON.stringify({
          allowedMcpServers: [
            { serverCommand: [process.execPath, DEMO_MCP_SERVER] },
            { serverName: 'other' },
          ],
        }),
      );
      const other = { command: process.execPath, args: [DEMO_MCP_SERVER, 'unlisted'] };
      const { llm } = await run([call('mcp__kept__echo', { text: 'allowed' }), { text: 'done' }], {
        settings: {
          mcp_servers: { kept: demo(), denied: demo(), other },
          mcp_overrides: { denied: { enabled: true } },
          deniedMcpServers: [{ serverName: 'denied' }],
        },
      });
      expect(toolResults(llm)).toEqual(['echo: allowed']);
      const offered = llm.calls[0]!.request.tools.map((t) => t.name).filter((n) =>
        n.startsWith('mcp__'),
      );
      expect(offered.every((n) => n.startsWith('mcp__kept__'))).toBe(true);
      const listing = await wb!.mcp.list({});
      expect(listing.servers.map((sv) => [sv.name, sv.status, sv.enabled, sv.blocked])).toEqual([
        ['kept', 'connected', true, undefined],
        [
          'denied',
          'disabled',
          false,
          `denied by deniedMcpServers in ${join(sb.home, 'settings.json')}`,
        ],
        ['other', 'disabled', false, `not in allowedMcpServers of ${managed}`],
      ]);
    } finally {
      delete process.env.WORKBENCH_CLAUDE_MANAGED_SETTINGS;
    }
  });
});

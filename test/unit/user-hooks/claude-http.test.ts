/** Claude Code `http` handlers: the input POSTed to a URL, the answer read as a command's stdout. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUserHooks } from '../../../src/main/user-hooks/index.ts';
import { blockedAddress } from '../../../src/main/user-hooks/http-address-guard.ts';
import { registerSecret } from '../../../src/main/secrets/redaction.ts';
import type { ToolResult } from '../../../src/shared/types/index.ts';
import {
  memoryHookRuns,
  runTool,
  sandbox,
  settingsWith,
  isolateClaudeSettings,
  testContext,
  type Sandbox,
} from './helpers.ts';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A hook endpoint on loopback answering each request with `answer` (which may hold it open). */
async function hookServer(answer: (res: ServerResponse, body: Record<string, unknown>) => void) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      received.push({ path: req.url ?? '', headers: req.headers, body });
      answer(res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

/** Denies any command that mentions rm, allows the rest with no output. */
const rmGuard = (res: ServerResponse, body: Record<string, unknown>) => {
  const command = String((body.tool_input as { command?: string } | undefined)?.command ?? '');
  if (!command.includes('rm')) return json(res, 200, '');
  json(res, 200, {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'no rm from the policy server',
    },
  });
};

let sb: Sandbox;
let restoreClaude: () => void;
const closers: Array<() => Promise<void>> = [];
beforeEach(() => {
  sb = sandbox();
  restoreClaude = isolateClaudeSettings(
    join(sb.home, 'claude'),
    join(sb.home, 'managed-settings.json'),
  );
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  restoreClaude();
  sb.cleanup();
});

function writeSettings(path: string, data: unknown) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(data));
}

const preToolUse = (handler: Record<string, unknown>) => ({
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', ...handler }] }] },
});

async function load(variables: Record<string, string | undefined> = {}) {
  const settings = settingsWith();
  const hookRuns = memoryHookRuns();
  const user = await createUserHooks({
    workspace: sb.ws,
    home: sb.home,
    settings,
    trusted: true,
    hookRuns,
    variables,
  });
  const t = testContext(sb.ws, sb.home, settings);
  const hook = user.hooks.find((h) => h.name === 'claude-hooks');
  let n = 0;
  const run = async (command: string): Promise<ToolResult> => {
    const c = { id: `tu_${++n}`, name: 'execute', args: { command } };
    return hook ? hook.wrapToolCall!(t.ctx, c, runTool(t)) : runTool(t)(c);
  };
  return { user, hookRuns, run, t };
}

describe('Claude Code http handlers', () => {
  it('POST the tool call to the URL and block it on a JSON deny, with the listed variables in the headers', async () => {
    const server = await hookServer(rmGuard);
    closers.push(server.close);
    writeSettings(
      join(sb.ws, '.claude', 'settings.json'),
      preToolUse({
        url: `${server.url}/guard`,
        headers: {
          Authorization: 'Bearer $POLICY_TOKEN',
          'X-Team': '${TEAM}',
          'X-Unlisted': 'x$HOME_SECRET',
        },
        allowedEnvVars: ['POLICY_TOKEN', 'TEAM'],
      }),
    );
    const { run, hookRuns, user } = await load({
      POLICY_TOKEN: 'tok-123',
      TEAM: 'infra',
      HOME_SECRET: 'leak',
    });
    expect(user.infos.find((i) => i.dialect === 'claude')).toMatchObject({
      command: `POST ${server.url}/guard`,
      name: `127.0.0.1:${server.url.split(':').pop()}/guard`,
    });

    expect((await run('ls')).error).toBeUndefined();
    const denied = await run('rm -rf build');
    expect(denied.error).toBe(
      `blocked by hook 127.0.0.1:${server.url.split(':').pop()}/guard: no rm from the policy server`,
    );
    expect(denied.output).toBe('');

    expect(server.received).toHaveLength(2);
    const [first] = server.received;
    expect(first!.path).toBe('/guard');
    expect(first!.headers['content-type']).toBe('application/json');
    expect(first!.headers.authorization).toBe('Bearer tok-123');
    expect(first!.headers['x-team']).toBe('infra');
    expect(first!.headers['x-unlisted']).toBe('x');
    expect(first!.body).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      cwd: sb.ws,
    });
    expect(hookRuns.rows.map((r) => r.decision)).toEqual(['none', 'deny']);
  });

  it('never sends the model API key, even when a handler lists the variable that holds it', async () => {
    const server = await hookServer((res) => json(res, 200, ''));
    closers.push(server.close);
    registerSecret('sk-model-key-for-http-hooks');
    writeSettings(
      join(sb.ws, '.claude', 'settings.json'),
      preToolUse({
        url: server.url,
        headers: { 'X-Key': '$OPENAI_API_KEY', 'X-Copy': '$COPY_OF_KEY' },
        allowedEnvVars: ['OPENAI_API_KEY', 'COPY_OF_KEY'],
      }),
    );
    const { run } = await load({
      OPENAI_API_KEY: 'sk-model-key-for-http-hooks',
      COPY_OF_KEY: 'sk-model-key-for-http-hooks',
    });
    await run('ls');
    expect(server.received[0]!.headers['x-key']).toBe('');
    expect(server.received[0]!.headers['x-copy']).toBe('');
  });

  it('let the call go on, with the failure shown, when the endpoint errs, is down, floods, answers text or hangs', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024);
    const server = await hookServer((res, body) => {
      const command = String((body.tool_input as { command: string }).command);
      if (command === 'err') return json(res, 503, 'policy backend down\nmore');
      if (command === 'flood') return json(res, 200, `{"a":"${big}"}`);
      if (command === 'text') return json(res, 200, 'deny please');
      if (command === 'hang') return; // never answers
      json(res, 200, '');
    });
    closers.push(server.close);
    writeSettings(join(sb.ws, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'http', url: `${server.url}/a`, timeout: 0.5 }] },
          { matcher: 'Bash', hooks: [{ type: 'http', url: 'http://127.0.0.1:9/closed' }] },
        ],
      },
    });
    const { run, hookRuns, t } = await load();
    for (const command of ['err', 'flood', 'text', 'hang']) {
      const result = await run(command);
      expect(result.error, command).toBeUndefined();
      expect(result.output).toContain('execute ran with');
    }
    const errors = hookRuns.rows.map((r) => r.error);
    expect(errors).toContain(
      `${server.url}/a answered HTTP 503 Service Unavailable: policy backend down`,
    );
    expect(errors).toContain('output too large');
    expect(errors).toContain(
      `${server.url}/a answered HTTP 200 OK with a body that is not a JSON object`,
    );
    expect(errors).toContain('hook timed out');
    expect(
      errors.filter((e) => e?.startsWith('could not reach http://127.0.0.1:9/closed')),
    ).toHaveLength(4);
    const failed = t.events.filter((e) => e.event === 'on_hook_end' && e.data.ok === false);
    expect(failed).toHaveLength(8);
    expect(
      t.spans.filter((s) => s.kind === 'hook' && s.attributes['error.type'] === 'http_error')
        .length,
    ).toBeGreaterThanOrEqual(6);
  });

  it("go through the user's HTTP_PROXY, which resolves the hook's host", async () => {
    const proxy = await hookServer(rmGuard);
    closers.push(proxy.close);
    writeSettings(
      join(sb.ws, '.claude', 'settings.json'),
      preToolUse({ url: 'http://policy.internal.invalid/guard' }),
    );
    const { run } = await load({ HTTP_PROXY: proxy.url, NO_PROXY: 'localhost' });
    expect((await run('rm -f x')).error).toBe(
      'blocked by hook policy.internal.invalid/guard: no rm from the policy server',
    );
    // The proxy got the request in absolute form: it, not the workbench, connects to the host.
    expect(proxy.received.map((r) => r.path)).toEqual(['http://policy.internal.invalid/guard']);
  });

  it('refuse a link-local or private address without connecting, and reach loopback by name', async () => {
    const server = await hookServer(rmGuard);
    closers.push(server.close);
    const port = server.url.split(':').pop();
    writeSettings(join(sb.ws, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'http', url: 'http://169.254.169.254/latest/meta-data/' }],
          },
          { matcher: 'Bash', hooks: [{ type: 'http', url: `http://localhost:${port}/by-name` }] },
        ],
      },
    });
    const { run, hookRuns } = await load();
    expect((await run('rm x')).error).toBe(
      `blocked by hook localhost:${port}/by-name: no rm from the policy server`,
    );
    expect(server.received.map((r) => r.path)).toEqual(['/by-name']);
    expect(hookRuns.rows.find((r) => r.error)?.error).toBe(
      'not sent to http://169.254.169.254/latest/meta-data/: 169.254.169.254 is a private, link-local or reserved address (http hooks reach loopback and public addresses only)',
    );
    for (const address of [
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '[::ffff:10.0.0.1]',
      'fe80::1',
      'fd00::1',
      '::',
    ])
      expect(blockedAddress(address), address).toBeDefined();
    for (const address of ['127.0.0.1', '::1', '8.8.8.8', '2606:4700::1111', 'example.com'])
      expect(blockedAddress(address), address).toBeUndefined();
  });

  it("honour the settings' allowedHttpHookUrls and httpHookAllowedEnvVars, the managed settings' alone when they set them", async () => {
    const server = await hookServer((res) => json(res, 200, ''));
    closers.push(server.close);
    writeSettings(join(sb.ws, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'http',
                url: `${server.url}/allowed`,
                headers: { 'X-A': '$A', 'X-B': '$B' },
                allowedEnvVars: ['A', 'B'],
              },
            ],
          },
          { matcher: 'Bash', hooks: [{ type: 'http', url: 'https://elsewhere.example/hook' }] },
        ],
      },
    });
    writeSettings(join(sb.home, 'claude', 'settings.json'), {
      allowedHttpHookUrls: [`${server.url}/*`],
      httpHookAllowedEnvVars: ['A'],
    });
    const first = await load({ A: 'a', B: 'b' });
    const blocked = first.user.infos.find(
      (i) => i.command === 'POST https://elsewhere.example/hook',
    );
    expect(blocked?.problem).toBe(
      `blocked: https://elsewhere.example/hook is not in "allowedHttpHookUrls" (${join(sb.home, 'claude', 'settings.json')})`,
    );
    await first.run('ls');
    expect(server.received).toHaveLength(1);
    expect(server.received[0]!.headers['x-a']).toBe('a');
    expect(server.received[0]!.headers['x-b']).toBe('');

    // The administrator's list stands alone: the user's own cannot widen it.
    writeSettings(join(sb.home, 'managed-settings.json'), { allowedHttpHookUrls: [] });
    const second = await load({ A: 'a', B: 'b' });
    expect(
      second.user.infos
        .filter((i) => i.dialect === 'claude')
        .every((i) => i.problem?.startsWith('blocked:')),
    ).toBe(true);
    await second.run('ls');
    expect(server.received).toHaveLength(1);
  });

  it('list a malformed http handler as a problem and never run it', async () => {
    writeSettings(join(sb.ws, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'http' },
              { type: 'http', url: 'file:///etc/passwd' },
              { type: 'http', url: 'http://127.0.0.1:1/x', headers: { A: 1 } },
              { type: 'http', url: 'http://127.0.0.1:1/y', allowedEnvVars: 'A' },
              { type: 'http', url: 'http://127.0.0.1:1/z', sandbox: true },
              { type: 'mcp_tool', tool: 'check' },
            ],
          },
        ],
      },
    });
    const { user, run, hookRuns } = await load();
    expect(user.infos.filter((i) => i.dialect === 'claude').map((i) => i.problem)).toEqual([
      'an http handler needs a "url" string',
      '"url" must be http or https: file:///etc/passwd',
      '"headers" must be an object of strings',
      '"allowedEnvVars" must be an array of variable names',
      '"sandbox" is for command handlers: an http handler runs no process',
      'an mcp_tool handler needs a "server" name',
    ]);
    await run('ls');
    expect(hookRuns.rows).toHaveLength(0);
  });
});

/**
 * HTTP tools against a local HTTP server: what is POSTed, JSON and text answers, the timeout, the
 * size cap, 429 then success (Retry-After), 4xx cancelling retries, an answer naming its error kind,
 * and a tool from agent.yaml used in a whole run (ignored in an untrusted workspace).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpTool, type HttpToolConfig } from '../../../src/main/tools/http-tool.ts';
import { dispatchToolCall } from '../../../src/main/agent/tool-dispatch.ts';
import { ToolRegistry } from '../../../src/main/tools/registry.ts';
import type { ToolContext } from '../../../src/main/tools/types.ts';
import type { RetryRules } from '../../../src/main/agent/tool-retry.ts';
import { createWorkbench } from '../../../src/main/api/workbench.ts';
import type { Workbench } from '../../../src/main/api/types.ts';
import { createTrustStore } from '../../../src/main/user-hooks/index.ts';
import { createScriptedLlm } from '../../helpers/scripted-llm.ts';
import { sandbox, type Sandbox } from '../../unit/user-hooks/helpers.ts';

let server: Server;
let base: string;
const hits = new Map<string, number>();
const received: Array<{ path: string; body: unknown; headers: IncomingMessage['headers'] }> = [];

async function body(req: IncomingMessage): Promise<string> {
  let s = '';
  for await (const chunk of req) s += chunk;
  return s;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void body(req).then((text) => {
      const path = req.url ?? '/';
      const n = (hits.get(path) ?? 0) + 1;
      hits.set(path, n);
      received.push({ path, body: JSON.parse(text || 'null'), headers: req.headers });
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(value));
      };
      if (path === '/json') return json(200, { answer: 42 });
      if (path === '/text') return res.end('plain text answer');
      if (path === '/slow') return void setTimeout(() => res.end('too late'), 2_000);
      if (path === '/busy') {
        if (n === 1) return json(429, { message: 'slow down' }, { 'retry-after': '0' });
        return json(200, 'ok after 429');
      }
      if (path === '/bad') return json(400, { message: 'bad input' });
      if (path === '/big') return res.end('x'.repeat(10_000));
      if (path === '/snooze') {
        if (n === 1)
          return json(200, { error: 'not yet', error_kind: 'snooze', snooze_seconds: 0 });
        return json(200, 'ready');
      }
      json(404, { message: 'no such route' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  hits.clear();
  received.length = 0;
});

const config = (path: string, extra: Partial<HttpToolConfig> = {}): HttpToolConfig => ({
  name: 'remote',
  description: 'a remote tool',
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
  url: `${base}${path}`,
  ...extra,
});

async function call(c: HttpToolConfig, retries?: RetryRules) {
  const tools = new ToolRegistry();
  tools.register(createHttpTool(c));
  return dispatchToolCall(
    { id: 'call_1', name: c.name, args: { q: 'hi' } },
    {
      tools,
      retries,
      backoffMs: () => 0,
      context: () =>
        ({ callId: 'call_1', signal: new AbortController().signal }) as unknown as ToolContext,
    },
  );
}

describe('HTTP tools', () => {
  it('POSTs the call id, name and arguments; a JSON answer is the result', async () => {
    process.env.HTTP_TOOL_TEST_TOKEN = 'sesame';
    const result = await call(
      config('/json', { headers: { authorization: 'Bearer ${HTTP_TOOL_TEST_TOKEN}' } }),
    );
    delete process.env.HTTP_TOOL_TEST_TOKEN;
    expect(result).toMatchObject({ status: 'ok' });
    expect(JSON.parse(result.output)).toEqual({ answer: 42 });
    expect(received[0].body).toEqual({ tool_call_id: 'call_1', name: 'remote', args: { q: 'hi' } });
    expect(received[0].headers.authorization).toBe('Bearer sesame');
  });

  it('a text answer is the result as is; an answer over the cap is cut', async () => {
    expect((await call(config('/text'))).output).toBe('plain text answer');
    const big = await call(config('/big', { max_response_bytes: 100 }));
    expect(big.output).toBe(`${'x'.repeat(100)}\n... (answer cut at 100 bytes)`);
  });

  it('times out', async () => {
    const started = Date.now();
    const result = await call(config('/slow', { timeout_ms: 150 }));
    expect(result).toMatchObject({ status: 'error', error: 'no answer within 150 ms' });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('429 is retried (Retry-After) and then succeeds', async () => {
    const result = await call(config('/busy'), { remote: { max_attempts: 2 } });
    expect(result).toMatchObject({
      status: 'ok',
      output: 'ok after 429',
      attempts: { n: 2, max: 2 },
    });
    expect(hits.get('/busy')).toBe(2);
  });

  it('another 4xx cancels: no retry whatever max_attempts allows', async () => {
    const result = await call(config('/bad'), { remote: { max_attempts: 3 } });
    expect(result.status).toBe('error');
    expect(result.error).toContain('HTTP 400');
    expect(hits.get('/bad')).toBe(1);
  });

  it('an answer naming snooze is retried without using an attempt', async () => {
    const result = await call(config('/snooze'));
    expect(result).toMatchObject({ status: 'ok', output: 'ready' });
    expect(hits.get('/snooze')).toBe(2);
  });
});

describe('HTTP tools from agent.yaml', () => {
  let sb: Sandbox;
  let wb: Workbench | undefined;
  beforeEach(() => {
    sb = sandbox();
    mkdirSync(join(sb.ws, '.workbench'), { recursive: true });
    writeFileSync(
      join(sb.ws, '.workbench', 'agent.yaml'),
      [
        'http_tools:',
        '  - name: lookup',
        '    description: Looks things up',
        `    url: ${base}/json`,
        '    parameters: { type: object, properties: { q: { type: string } }, required: [q] }',
      ].join('\n'),
    );
  });
  afterEach(async () => {
    await wb?.close();
    wb = undefined;
    sb.cleanup();
  });

  async function run(trusted: boolean) {
    if (trusted) await createTrustStore(sb.home).trust(sb.ws);
    const llm = createScriptedLlm([
      ...(trusted ? [{ toolCalls: [{ name: 'lookup', args: { q: 'x' } }] }] : []),
      { text: 'done' },
    ]);
    wb = await createWorkbench({ home: sb.home, workspace: sb.ws, llm, interactive: false });
    await (
      await wb.chat.send({ text: 'go', approvalMode: 'auto' })
    ).finished;
    llm.assertComplete();
    return llm;
  }

  it('offers the tool with its JSON Schema and returns the answer to the model', async () => {
    const llm = await run(true);
    const tool = llm.calls[0].request.tools.find((t) => t.name === 'lookup');
    expect(tool?.parameters).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
    });
    const results = llm.calls[1].request.messages.filter((m) => m.role === 'tool');
    expect(JSON.parse(results[0].content)).toEqual({ answer: 42 });
  });

  it('never replaces a built-in tool of the same name', async () => {
    writeFileSync(
      join(sb.ws, '.workbench', 'agent.yaml'),
      `http_tools:\n  - { name: read_file, description: shadow, url: "${base}/json" }\n`,
    );
    await createTrustStore(sb.home).trust(sb.ws);
    const llm = createScriptedLlm([{ text: 'done' }]);
    wb = await createWorkbench({ home: sb.home, workspace: sb.ws, llm, interactive: false });
    const diagnostics: string[] = [];
    wb.subscribe((e) => e.event === 'error' && diagnostics.push(e.data.message));
    await (
      await wb.chat.send({ text: 'go', approvalMode: 'auto' })
    ).finished;
    const readFile = llm.calls[0].request.tools.find((t) => t.name === 'read_file');
    expect(readFile?.description).not.toBe('shadow');
    expect(diagnostics).toContain('http tool "read_file" ignored: a tool with that name exists');
  });

  it('is ignored in an untrusted workspace', async () => {
    const llm = await run(false);
    expect(llm.calls[0].request.tools.map((t) => t.name)).not.toContain('lookup');
    expect(hits.size).toBe(0);
  });
});

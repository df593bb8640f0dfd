// The model client's own HTTP and SSE handling, against a bare node:http server that controls every
// byte and counts TCP connections.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiClient } from '../../../src/main/llm/openai-client.ts';
import { listModels } from '../../../src/main/llm/providers.ts';
import { LlmError } from '../../../src/main/llm/types.ts';
import type { ModelRequest } from '../../../src/main/llm/types.ts';
import { closedPort } from '../../helpers/ports.ts';

const KEY = 'sk-test-canary-0987654321';
const req: ModelRequest = {
  model: 'm',
  system: [],
  params: {},
  messages: [{ role: 'user', content: 'hi' }],
  tools: [],
};

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

interface Bare {
  baseURL: string;
  /** TCP connections accepted so far. */
  connections: number;
  /** Sockets closed so far. */
  closed: number;
  requests: Array<{ headers: IncomingMessage['headers']; body: string; url: string }>;
}

const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

/** Starts a server answering each request with the next handler (the last one repeats). */
async function bare(...handlers: Handler[]): Promise<Bare> {
  const sockets = new Set<Socket>();
  const state: Bare = { baseURL: '', connections: 0, closed: 0, requests: [] };
  let n = 0;
  const server = createServer((request, res) => {
    const parts: Buffer[] = [];
    request.on('data', (c: Buffer) => parts.push(c));
    request.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      state.requests.push({ headers: request.headers, body, url: request.url ?? '' });
      const handler = handlers[Math.min(n++, handlers.length - 1)]!;
      void handler(request, res, body);
    });
  });
  server.on('connection', (s) => {
    state.connections++;
    sockets.add(s);
    s.on('close', () => {
      state.closed++;
      sockets.delete(s);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  servers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return state;
}

const chunk = (content: string, finish?: string) =>
  `data: ${JSON.stringify({ choices: [{ delta: { content }, finish_reason: finish ?? null }] })}\n\n`;

function sse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
}

const answer =
  (text: string): Handler =>
  (_req, res) => {
    sse(res);
    res.end(chunk(text) + chunk('', 'stop') + 'data: [DONE]\n\n');
  };

function write(res: ServerResponse, data: string | Buffer): Promise<void> {
  return new Promise((resolve) => res.write(data, () => resolve()));
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

const signal = () => new AbortController().signal;

// Node's http agents take `proxyEnv` since 24.5 (what `fetch` honoured with NODE_USE_ENV_PROXY=1).
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const agentsTakeProxyEnv = major > 24 || (major === 24 && minor >= 5);

describe('the model client over node:http', () => {
  it('sends three rounds over one TCP connection with the expected headers', async () => {
    const srv = await bare(answer('one'), answer('two'), answer('three'));
    const client = createOpenAiClient({ apiKey: KEY, baseURL: srv.baseURL });
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) texts.push((await client.chat(req, { signal: signal() })).content);
    expect(texts).toEqual(['one', 'two', 'three']);
    expect(srv.connections).toBe(1);
    const { headers, body, url } = srv.requests[0]!;
    expect(url).toBe('/v1/chat/completions');
    expect(headers.authorization).toBe(`Bearer ${KEY}`);
    expect(headers['content-type']).toBe('application/json');
    expect(headers.accept).toBe('text/event-stream');
    expect(headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(JSON.parse(body)).toMatchObject({ model: 'm', stream: true });
  });

  it('resends at once, on a new connection, when a kept-alive socket was closed unanswered', async () => {
    const srv = await bare(
      answer('first'),
      (request) => void request.socket.destroy(),
      answer('second'),
    );
    const client = createOpenAiClient({ apiKey: KEY, baseURL: srv.baseURL });
    expect((await client.chat(req, { signal: signal() })).content).toBe('first');
    const retries: number[] = [];
    const res = await client.chat(req, { signal: signal(), onRetry: (n) => retries.push(n) });
    expect(res.content).toBe('second');
    expect(retries).toEqual([]);
    expect(srv.connections).toBe(2);
  });

  it('sends no authorization header without a key', async () => {
    const srv = await bare(answer('ok'));
    await createOpenAiClient({ apiKey: '', baseURL: srv.baseURL }).chat(req, { signal: signal() });
    expect(srv.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('reads a stream sent one byte at a time, split inside multi-byte characters and CRLFs', async () => {
    const text = 'héllo wörld — 😀 ok';
    const stream =
      ': keep-alive\r\n\r\n' +
      `data: ${JSON.stringify({ choices: [{ delta: { content: text } }] })}\r\n\r\n` +
      chunk('', 'stop') +
      'data: [DONE]\r\n\r\n';
    const srv = await bare(async (_req, res) => {
      sse(res);
      const bytes = Buffer.from(stream, 'utf8');
      for (let i = 0; i < bytes.length; i++) await write(res, bytes.subarray(i, i + 1));
      res.end();
    });
    const deltas: string[] = [];
    const res = await createOpenAiClient({ apiKey: KEY, baseURL: srv.baseURL }).chat(req, {
      signal: signal(),
      onDelta: (d) => deltas.push(d),
    });
    expect(res).toMatchObject({ content: text, finish_reason: 'stop' });
    expect(res.interrupted).toBeUndefined();
    expect(deltas).toEqual([text]);
  });

  it('a stream that ends without finishing (no [DONE]) is interrupted', async () => {
    const srv = await bare((_req, res) => {
      sse(res);
      res.end(chunk('half an ans'));
    });
    const res = await createOpenAiClient({ apiKey: KEY, baseURL: srv.baseURL }).chat(req, {
      signal: signal(),
    });
    expect(res).toMatchObject({
      content: 'half an ans',
      tool_calls: [],
      interrupted: true,
      error: 'the stream ended before the model finished',
    });
  });

  it('retries a 429 after its retry-after on the same connection, then streams', async () => {
    const srv = await bare((_req, res) => {
      const body = JSON.stringify({ error: { message: 'slow down' } });
      res.writeHead(429, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'retry-after': '0',
      });
      res.end(body);
    }, answer('after the wait'));
    const retries: Array<[number, number, string]> = [];
    const res = await createOpenAiClient({ apiKey: KEY, baseURL: srv.baseURL }).chat(req, {
      signal: signal(),
      onRetry: (n, delay, why) => retries.push([n, delay, why]),
    });
    expect(res.content).toBe('after the wait');
    expect(retries).toEqual([[1, 0, `rate limited by ${srv.baseURL} (429): slow down`]]);
    expect(srv.connections).toBe(1);
  });

  it('a socket destroyed mid-stream resolves interrupted: the connection was lost mid-stream', async () => {
    const srv = await bare(async (request, res) => {
      sse(res);
      await write(res, chunk('partial'));
      request.socket.destroy();
    });
    const res = await createOpenAiClient({ apiKey: KEY, baseURL: srv.baseURL }).chat(req, {
      signal: signal(),
    });
    expect(res).toMatchObject({
      content: 'partial',
      tool_calls: [],
      interrupted: true,
      error: 'the connection was lost mid-stream',
    });
    expect(srv.requests).toHaveLength(1);
  });

  it('a stream that never ends its line is cut at 16 MB instead of filling the memory', async () => {
    let sent = 0;
    const srv = await bare(async (request, res) => {
      sse(res);
      await write(res, chunk('before'));
      const junk = 'x'.repeat(1024 * 1024);
      while (!request.socket.destroyed && sent < 64) {
        await write(res, junk);
        sent++;
      }
    });
    const res = await createOpenAiClient({ apiKey: KEY, baseURL: srv.baseURL }).chat(req, {
      signal: signal(),
    });
    expect(res).toMatchObject({
      content: 'before',
      interrupted: true,
      error: 'the server sent a stream event over 16 MB',
    });
    await until(() => srv.closed === 1);
    expect(sent).toBeLessThan(64);
  });

  it('aborting mid-stream rejects with AbortError and closes the connection', async () => {
    const srv = await bare(async (_req, res) => {
      sse(res);
      await write(res, chunk('first'));
      // then nothing: the stream stays open until the client gives up
    });
    const ctrl = new AbortController();
    const p = createOpenAiClient({ apiKey: KEY, baseURL: srv.baseURL }).chat(req, {
      signal: ctrl.signal,
      onDelta: () => ctrl.abort(),
    });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    await until(() => srv.closed === 1);
    expect(srv.closed).toBe(1);
  });

  it('reports an error event mid-stream with the server message, never the key', async () => {
    const srv = await bare((_req, res) => {
      sse(res);
      res.end(
        chunk('so far') +
          `event: error\ndata: ${JSON.stringify({ error: { message: `overloaded for ${KEY}` } })}\n\n`,
      );
    });
    const res = await createOpenAiClient({ apiKey: KEY, baseURL: srv.baseURL }).chat(req, {
      signal: signal(),
    });
    expect(res).toMatchObject({
      content: 'so far',
      interrupted: true,
      error: 'the server reported an error mid-stream: overloaded for ***',
    });
  });

  it('follows a 307 redirect with the same body, as fetch did', async () => {
    const srv = await bare((request, res) => {
      if (request.url === '/v1/chat/completions') {
        res.writeHead(307, { location: '/v2/chat/completions', 'content-length': 0 });
        return void res.end();
      }
      answer('moved')(request, res, '');
    });
    const res = await createOpenAiClient({ apiKey: KEY, baseURL: srv.baseURL }).chat(req, {
      signal: signal(),
    });
    expect(res.content).toBe('moved');
    expect(srv.requests.map((r) => r.url)).toEqual([
      '/v1/chat/completions',
      '/v2/chat/completions',
    ]);
    expect(srv.requests[1]!.body).toBe(srv.requests[0]!.body);
    expect(srv.requests[1]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('a 400 whose message echoes the key is reported scrubbed', async () => {
    const srv = await bare((_req, res) => {
      const body = JSON.stringify({ error: { message: `bad key format ${KEY}` } });
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(body);
    });
    const err = await createOpenAiClient({ apiKey: KEY, baseURL: srv.baseURL })
      .chat(req, { signal: signal() })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).message).toBe(
      'the endpoint rejected the request (400): bad key format ***',
    );
  });

  it('a server that never answers hits the request timeout as a retryable timeout', async () => {
    const srv = await bare(() => {});
    const retries: string[] = [];
    const err = await createOpenAiClient({
      apiKey: KEY,
      baseURL: srv.baseURL,
      requestTimeoutMs: 50,
      maxRetries: 1,
      retryBaseMs: 1,
    })
      .chat(req, { signal: signal(), onRetry: (_n, _d, why) => retries.push(why) })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'timeout',
      message: `${srv.baseURL} did not answer in time`,
    });
    expect(retries).toEqual([`${srv.baseURL} did not answer in time`]);
  });

  it('listModels uses the same transport and its connection is reused', async () => {
    const srv = await bare((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ id: 'b' }, { id: 'a' }] }));
    });
    expect(await listModels({ baseURL: srv.baseURL, apiKey: KEY })).toEqual(['a', 'b']);
    expect(await listModels({ baseURL: srv.baseURL, apiKey: KEY })).toEqual(['a', 'b']);
    expect(srv.connections).toBe(1);
    expect(srv.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it.skipIf(!agentsTakeProxyEnv)(
    'goes through HTTP_PROXY only when NODE_USE_ENV_PROXY=1, as fetch did',
    async () => {
      const proxy = await bare(answer('via the proxy'));
      const saved = { HTTP_PROXY: process.env.HTTP_PROXY, USE: process.env.NODE_USE_ENV_PROXY };
      process.env.HTTP_PROXY = new URL(proxy.baseURL).origin;
      const far = {
        apiKey: KEY,
        baseURL: `http://127.0.0.1:${await closedPort()}/v1`,
        maxRetries: 0,
      };
      try {
        process.env.NODE_USE_ENV_PROXY = '1';
        const res = await createOpenAiClient(far).chat(req, { signal: signal() });
        expect(res.content).toBe('via the proxy');
        expect(proxy.requests.map((r) => r.url)).toEqual([`${far.baseURL}/chat/completions`]);
        process.env.NODE_USE_ENV_PROXY = '0';
        const err = await createOpenAiClient(far)
          .chat(req, { signal: signal() })
          .catch((e: unknown) => e);
        expect(err).toMatchObject({ code: 'unreachable' });
        expect(proxy.requests).toHaveLength(1);
      } finally {
        if (saved.HTTP_PROXY === undefined) delete process.env.HTTP_PROXY;
        else process.env.HTTP_PROXY = saved.HTTP_PROXY;
        if (saved.USE === undefined) delete process.env.NODE_USE_ENV_PROXY;
        else process.env.NODE_USE_ENV_PROXY = saved.USE;
      }
    },
  );
});

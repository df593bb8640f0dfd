/**
 * The project's one fake OpenAI-compatible server (`node:http`, port 0), used by integration tests,
 * Playwright e2e, screenshots and benchmarks.
 *
 * - `POST /v1/chat/completions`: answers with the next scripted turn (see `ScriptTurn`), streamed as
 *   proper SSE (`data: {chunk}\n\n` … `data: [DONE]\n\n`) or as one JSON object when `stream` is false.
 *   Order: scripted queue first; when empty, the first rule whose regex matches the last user message
 *   enqueues its turns; else `DEFAULT_TURN` (text "ok").
 * - `GET /v1/models`: `{object:'list', data:[{id}]}` of `models`.
 * - `apiKey` set → any other bearer gets 401 with an OpenAI-style error body.
 * - Control (for a server in another process; never auth-checked): `POST /__control/script` with
 *   `{script?, rules?: [{match, flags?, turns}], models?}` replaces queue and rules;
 *   `GET /__control/requests` returns the log; `POST /__control/reset` clears queue, rules and log.
 *
 * Example:
 *   await withFakeOpenAi(
 *     [
 *       { text: 'Reading it.', toolCalls: [{ name: 'read_file', args: { path: 'a.ts' } }] },
 *       { text: 'Done.', usage: { input_tokens: 120, output_tokens: 3 } },
 *       { text: 'Hel', breakAfterChunks: 2 },          // connection drops mid-text
 *       { error: { status: 429, retryAfter: 1 } },      // rate limited, then the next turn
 *       (req) => ({ text: `saw ${req.messages.length} messages` }),
 *     ],
 *     async (fake) => {
 *       const llm = createOpenAiClient({ apiKey: 'sk-test', baseURL: fake.baseURL });
 *       // … fake.chatRequests() holds the request bodies
 *     },
 *   );
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { buildChunks, buildCompletion, DEFAULT_TURN, lastUserText } from './fake-openai-script.ts';
import type { FakeChatRequest, ScriptEntry, ScriptRule, ScriptTurn } from './fake-openai-script.ts';

export type {
  FakeChatRequest,
  ScriptEntry,
  ScriptRule,
  ScriptToolCall,
  ScriptTurn,
} from './fake-openai-script.ts';

/** Options of `startFakeOpenAi` (also the CLI's script-file format). */
export interface FakeOpenAiOptions {
  script?: ScriptEntry[];
  rules?: ScriptRule[];
  /** Listed by GET /v1/models; default ['fake-model']. */
  models?: string[];
  /** When set, requests must send `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** When true, a chat request for a model not in `models` gets OpenAI's 404 model_not_found. */
  strictModels?: boolean;
  /** Default 0 (a free port). */
  port?: number;
}

/** One logged request (control requests are not logged). */
export interface LoggedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the raw text when it did not parse, or undefined for an empty body. */
  body: unknown;
  at: number;
}

/** A running fake server. */
export interface FakeOpenAi {
  /** e.g. http://127.0.0.1:39123/v1 — pass it as the client's baseURL. */
  readonly baseURL: string;
  readonly port: number;
  /** Every non-control request, in arrival order (mutated in place). */
  readonly requests: LoggedRequest[];
  /** Bodies of the chat-completion requests only. */
  chatRequests(): FakeChatRequest[];
  push(...turns: ScriptEntry[]): void;
  setRules(rules: ScriptRule[]): void;
  /** Scripted turns not consumed yet. */
  remaining(): number;
  reset(): void;
  close(): Promise<void>;
}

/**
 * Starts the fake server on 127.0.0.1.
 * Contract: `close()` also destroys stalled or open streams, so it never hangs.
 */
export async function startFakeOpenAi(opts: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  let queue: ScriptEntry[] = [...(opts.script ?? [])];
  let rules: ScriptRule[] = [...(opts.rules ?? [])];
  let models = opts.models ?? ['fake-model'];
  const requests: LoggedRequest[] = [];
  const sockets = new Set<Socket>();
  let completionCount = 0;

  const nextTurn = (req: FakeChatRequest): ScriptTurn => {
    if (queue.length === 0) {
      const text = lastUserText(req);
      const rule = rules.find((r) => toRegExp(r.match).test(text));
      if (rule) queue.push(...rule.turns);
    }
    const entry = queue.shift() ?? DEFAULT_TURN;
    return typeof entry === 'function' ? entry(req) : entry;
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(500, String(err)));
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    const raw = await readBody(req);
    const body = parseTolerant(raw);

    if (path.startsWith('/__control/')) return control(req.method ?? 'GET', path, body, res);
    requests.push({
      method: req.method ?? 'GET',
      path,
      headers: { ...req.headers },
      body,
      at: Date.now(),
    });

    if (opts.apiKey !== undefined && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      return sendJson(res, 401, {
        error: {
          message:
            'Incorrect API key provided. You can find your API key in your account settings.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
    }
    if (req.method === 'GET' && path === '/v1/models') {
      const created = Math.floor(Date.now() / 1000);
      return sendJson(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created, owned_by: 'fake' })),
      });
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      const chat = (body && typeof body === 'object' ? body : { messages: [] }) as FakeChatRequest;
      if (!Array.isArray(chat.messages)) chat.messages = [];
      const model = typeof chat.model === 'string' ? chat.model : 'fake-model';
      if (opts.strictModels && !models.includes(model)) {
        return sendJson(res, 404, {
          error: {
            message: `The model '${model}' does not exist or you do not have access to it.`,
            type: 'invalid_request_error',
            param: null,
            code: 'model_not_found',
          },
        });
      }
      return answer(nextTurn(chat), chat, model, res);
    }
    return sendJson(res, 404, errorBody(404, `Unknown request URL: ${req.method} ${path}`));
  }

  async function answer(
    turn: ScriptTurn,
    chat: FakeChatRequest,
    model: string,
    res: ServerResponse,
  ) {
    const id = `chatcmpl-fake-${++completionCount}`;
    if (turn.error) {
      const headers: Record<string, string> = {};
      if (turn.error.retryAfter !== undefined)
        headers['retry-after'] = String(turn.error.retryAfter);
      if (turn.error.retryAfterMs !== undefined)
        headers['retry-after-ms'] = String(turn.error.retryAfterMs);
      return sendJson(
        res,
        turn.error.status,
        turn.error.body ?? errorBody(turn.error.status),
        headers,
      );
    }
    if (chat.stream !== true) return sendJson(res, 200, buildCompletion(turn, { model, id }));

    const withUsage =
      (chat.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const chunks = buildChunks(turn, { model, id, withUsage });
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.flushHeaders();
    for (let i = 0; i < chunks.length; i++) {
      if (i === turn.breakAfterChunks) return void res.socket?.destroy();
      if (i === turn.stallAfterChunks) return; // keep the socket open; close() destroys it
      if (i === turn.errorAfterChunks) {
        res.write(
          `data: ${JSON.stringify(errorBody(500, 'The server had an error while processing your request.'))}\n\n`,
        );
        return void res.end();
      }
      if (i === turn.malformedAfterChunks) {
        res.write('data: {"choices": [ this is not json\n\n');
        return void res.end();
      }
      if (i > 0 && turn.delayMs) await wait(turn.delayMs);
      if (res.destroyed) return;
      // Awaited so a later break/stall never discards chunks still sitting in the socket buffer.
      await write(res, `data: ${JSON.stringify(chunks[i])}\n\n`);
    }
    if (turn.breakAfterChunks !== undefined && turn.breakAfterChunks >= chunks.length)
      return void res.socket?.destroy();
    res.write('data: [DONE]\n\n');
    res.end();
  }

  function control(method: string, path: string, body: unknown, res: ServerResponse): void {
    if (method === 'POST' && path === '/__control/script') {
      const b = (body ?? {}) as { script?: ScriptEntry[]; rules?: ScriptRule[]; models?: string[] };
      queue = [...(b.script ?? [])];
      rules = [...(b.rules ?? [])];
      if (b.models) models = b.models;
      return sendJson(res, 200, { ok: true, queued: queue.length, rules: rules.length });
    }
    if (method === 'GET' && path === '/__control/requests') return sendJson(res, 200, requests);
    if (method === 'POST' && path === '/__control/reset') {
      fake.reset();
      return sendJson(res, 200, { ok: true });
    }
    return sendJson(res, 404, errorBody(404, `unknown control ${method} ${path}`));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  const fake: FakeOpenAi = {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    chatRequests: () =>
      requests
        .filter((r) => r.path === '/v1/chat/completions')
        .map((r) => r.body as FakeChatRequest),
    push: (...turns) => void queue.push(...turns),
    setRules: (next) => void (rules = [...next]),
    remaining: () => queue.length,
    reset() {
      queue = [];
      rules = [];
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  return fake;
}

/** Runs `fn` against a fresh fake server and always closes it. */
export async function withFakeOpenAi<T>(
  script: ScriptEntry[] | FakeOpenAiOptions,
  fn: (server: FakeOpenAi) => Promise<T>,
): Promise<T> {
  const server = await startFakeOpenAi(Array.isArray(script) ? { script } : script);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

function toRegExp(match: RegExp | string | { source: string; flags?: string }): RegExp {
  if (match instanceof RegExp) return match;
  if (typeof match === 'string') return new RegExp(match, 'i');
  return new RegExp(match.source, match.flags);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(parts).toString('utf8')));
  });
}

/** Tolerant: a body that is not JSON is kept as text rather than failing the request. */
function parseTolerant(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function errorBody(status: number, message?: string): object {
  const type =
    status === 429
      ? 'rate_limit_exceeded'
      : status >= 500
        ? 'server_error'
        : 'invalid_request_error';
  const text =
    message ??
    (status === 429
      ? 'Rate limit reached. Please try again later.'
      : status >= 500
        ? 'The server had an error while processing your request.'
        : `Request failed with status ${status}.`);
  return { error: { message: text, type, param: null, code: null } };
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => res.write(text, () => resolve()));
}

function wait(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

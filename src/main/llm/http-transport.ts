/**
 * The model client's HTTP: `node:http` / `node:https` with one keep-alive agent per scheme, so
 * consecutive rounds reuse one connection and nothing is set up per request (docs/performance.md).
 */
import type { Agent, IncomingHttpHeaders, IncomingMessage, RequestOptions } from 'node:http';
import { abortError } from '../abort.ts';

// Taken from the CommonJS side at first use: an ES `import` of node:http builds its module facade,
// whose lazy `WebSocket` export loads undici (tens of ms at start) that this client exists to avoid;
// and node:http cannot be part of the CLI's startup snapshot (docs/performance.md).
const http = () => process.getBuiltinModule('node:http');

/** One request. `body` is sent with its `content-length`, its chunks one after another. */
export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  /** Sent as is when already encoded (the model request body is built as byte chunks). */
  body?: string | Buffer | readonly Buffer[];
  signal: AbortSignal;
  /** Cap for getting the response headers (redirects included). */
  timeoutMs: number;
}

/** The response once its headers arrived; `body` is still to be read (or destroyed). */
export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: IncomingMessage;
}

/** Sends requests over the transport's own keep-alive agents. */
export interface HttpTransport {
  /**
   * Contract: resolves at the headers of the final response (redirects followed like `fetch`: at
   * most 20, 303 and a POST's 301/302 turn into a GET, the authorization header is dropped when the
   * origin changes); rejects with the network error (its `code`: ECONNREFUSED…), an
   * `HttpTimeoutError`, or `abortError(signal)` — the request is destroyed in every case.
   */
  send(req: HttpRequest): Promise<HttpResponse>;
}

/** The response headers did not arrive within `timeoutMs`. */
export class HttpTimeoutError extends Error {
  constructor(ms: number) {
    super(`no response within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

const MAX_REDIRECTS = 20;

/** Reads one header as `fetch`'s `Headers.get` would (what `parseRetryAfter` expects). */
export function headerGetter(headers: IncomingHttpHeaders): { get(name: string): string | null } {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/**
 * Creates a transport with its own agents (created on first use; `node:https` is loaded only for
 * an https URL).
 * Contract: HTTP(S)_PROXY / NO_PROXY are honoured exactly when Node is told to use them
 * (NODE_USE_ENV_PROXY=1 or --use-env-proxy), as Node's own `fetch` does.
 */
export function createHttpTransport(opts: { maxSockets?: number } = {}): HttpTransport {
  const agents = new Map<string, Agent>();
  const agentFor = (protocol: string): Agent => {
    let agent = agents.get(protocol);
    if (!agent) {
      const options = {
        keepAlive: true,
        // Runs, threads and subagents share a client and each stream holds a socket for its whole
        // answer: the cap is far above that (a queued request would wait out its timers) and only
        // stops a runaway.
        maxSockets: opts.maxSockets ?? 256,
        noDelay: true,
        proxyEnv: useEnvProxy() ? process.env : undefined,
      };
      agent =
        protocol === 'https:'
          ? new (process.getBuiltinModule('node:https').Agent)(options)
          : new (http().Agent)(options);
      agents.set(protocol, agent);
    }
    return agent;
  };

  async function send(req: HttpRequest): Promise<HttpResponse> {
    if (req.signal.aborted) throw abortError(req.signal);
    const deadline = Date.now() + req.timeoutMs;
    let url = new URL(req.url);
    let method = req.method;
    let body = chunksOf(req.body);
    const headers = { ...req.headers };
    for (let hops = 0; ; hops++) {
      const res = await once(url, method, headers, body, req.signal, deadline - Date.now());
      const location = res.headers.location;
      if (!isRedirect(res.statusCode) || location === undefined) {
        return { status: res.statusCode ?? 0, headers: res.headers, body: res };
      }
      res.resume();
      if (hops >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
      const next = new URL(location, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:')
        throw new Error(`redirected to an unsupported URL scheme (${next.protocol})`);
      const code = res.statusCode!;
      if (code === 303 || ((code === 301 || code === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
      }
      if (next.origin !== url.origin) delete headers.authorization;
      url = next;
    }
  }

  function once(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: readonly Buffer[] | undefined,
    signal: AbortSignal,
    timeoutMs: number,
    retried = false,
  ): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const options: RequestOptions = {
        method,
        agent: agentFor(url.protocol),
        headers:
          body === undefined ? headers : { ...headers, 'content-length': String(lengthOf(body)) },
      };
      const request = (
        url.protocol === 'https:' ? process.getBuiltinModule('node:https').request : http().request
      )(url, options);
      const fail = (err: Error) => {
        cleanup();
        request.destroy();
        reject(err);
      };
      const onAbort = () => fail(abortError(signal));
      const timer = setTimeout(() => fail(new HttpTimeoutError(timeoutMs)), Math.max(0, timeoutMs));
      const cleanup = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      request.on('error', (err: NodeJS.ErrnoException) => {
        cleanup();
        // The server may close an idle kept-alive socket just as it is reused: that request never
        // got an answer, so it is sent once more (the agent has dropped the dead socket).
        if (request.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE') && !retried)
          resolve(once(url, method, headers, body, signal, timeoutMs, true));
        else reject(err);
      });
      request.on('response', (res) => {
        cleanup();
        resolve(res);
      });
      for (const chunk of body ?? []) request.write(chunk);
      request.end();
    });
  }

  return { send };
}

/** The body as byte chunks, encoded once: their total is the content-length and they go out as they are. */
function chunksOf(body: HttpRequest['body']): readonly Buffer[] | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string') return [Buffer.from(body, 'utf8')];
  return Buffer.isBuffer(body) ? [body] : body;
}

function lengthOf(chunks: readonly Buffer[]): number {
  let n = 0;
  for (const c of chunks) n += c.length;
  return n;
}

function isRedirect(status: number | undefined): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

function useEnvProxy(): boolean {
  if (process.env.NODE_USE_ENV_PROXY === '1') return true;
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].includes(
    '--use-env-proxy',
  );
}

/**
 * Reads a response body as UTF-8 text, at most `maxBytes` of it.
 * Contract: never rejects — a body that breaks or is destroyed gives what arrived; past `maxBytes`
 * the body is destroyed (its connection is not reused).
 */
export function readText(body: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(parts).toString('utf8'));
    body.on('data', (chunk: Buffer) => {
      const room = maxBytes - size;
      parts.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += chunk.length;
      if (size >= maxBytes) body.destroy();
    });
    body.on('error', () => {});
    body.on('end', done);
    body.on('close', done);
  });
}

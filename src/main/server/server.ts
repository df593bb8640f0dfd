/**
 * `workbench serve`: node:http serving the built renderer plus the IPC contract over a WebSocket
 * (`/ws`) and `POST /api/<channel>`, on loopback by default, guarded by a random token and same-origin
 * checks (docs/architecture.md).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Workbench } from '../api/types.ts';
import { createHandlers, dispatch, forwardEvents, type HandlerDeps, type SecretPort } from '../api/handlers.ts';
import { allowedOrigins, newToken, refusal, TOKEN_COOKIE, tokensEqual } from './auth.ts';
import { resolveStatic, sendFile } from './static-files.ts';

export interface StartServerOptions {
  workbench: Workbench;
  host?: string;
  port?: number;
  rendererDir: string;
  secrets?: SecretPort;
  token?: string;
  version?: string;
  envOverrides?: HandlerDeps['envOverrides'];
  providers?: HandlerDeps['providers'];
}

export interface RunningServer {
  url: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY = 8 * 1024 * 1024;

/** The page CSP: no inline script, no eval, sockets only to this server. */
export function contentSecurityPolicy(wsOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "worker-src 'self' blob:",
    "font-src 'self' data:",
    "img-src 'self' data:",
    `connect-src 'self' ${wsOrigin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function memorySecrets(): SecretPort {
  let key: string | undefined;
  return { get: () => key, set: async (k) => void (key = k ?? undefined), storage: () => (key ? 'memory' : 'none') };
}

/** Starts the server. Contract: binds only `host` (default 127.0.0.1); `port` 0 picks a free one. */
export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const token = opts.token ?? newToken();
  const handlers = createHandlers({
    workbench: opts.workbench,
    mode: 'serve',
    version: opts.version ?? '0.0.0',
    secrets: opts.secrets ?? memorySecrets(),
    envOverrides: opts.envOverrides,
    providers: opts.providers,
    platform: process.platform,
  });
  let guard: ReturnType<typeof allowedOrigins> = { hosts: new Set() };
  let csp = '';
  const baseHeaders = () => ({
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
  });

  const deny = (res: ServerResponse, status: number, reason: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...baseHeaders() });
    res.end(status === 401 ? `${reason}. Open the URL printed by \`workbench serve\` (it carries the token).\n` : `${reason}\n`);
  };

  const api = async (req: IncomingMessage, res: ServerResponse, channel: string) => {
    if (req.method !== 'POST') return deny(res, 405, 'use POST');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY) return deny(res, 413, 'body too large');
      chunks.push(chunk);
    }
    let args: unknown;
    try {
      args = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
    } catch {
      return deny(res, 400, 'body is not JSON');
    }
    const result = await dispatch(handlers, channel, args);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...baseHeaders() });
    res.end(JSON.stringify(result));
  };

  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    const isApi = url.pathname.startsWith('/api/');
    const why = refusal(req, url, { token, ...guard, requireOrigin: isApi });
    if (why) return deny(res, why.status, why.reason);
    if (isApi) return api(req, res, decodeURIComponent(url.pathname.slice('/api/'.length)));
    if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'method not allowed');
    const cookie = `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
    if (tokensEqual(url.searchParams.get('token') ?? undefined, token)) {
      // First load: keep the token in an HttpOnly cookie and drop it from the address bar.
      url.searchParams.delete('token');
      res.writeHead(302, { location: `${url.pathname}${url.search}`, 'set-cookie': cookie, ...baseHeaders() });
      return res.end();
    }
    let file = await resolveStatic(opts.rendererDir, url.pathname);
    if (!file && !/\.[a-z0-9]+$/i.test(url.pathname) && !url.pathname.includes('..')) {
      file = await resolveStatic(opts.rendererDir, '/index.html');
    }
    if (!file) return deny(res, 404, 'not found');
    sendFile(res, file, baseHeaders());
  };

  const server = createServer((req, res) => {
    onRequest(req, res).catch((err: unknown) => {
      if (!res.headersSent) deny(res, 500, err instanceof Error ? err.message : 'internal error');
      else res.destroy();
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    const why = url.pathname === '/ws' ? refusal(req, url, { token, ...guard, requireOrigin: true }) : { status: 403 as const, reason: 'not found' };
    if (why) {
      socket.end(`HTTP/1.1 ${why.status} ${why.status === 401 ? 'Unauthorized' : 'Forbidden'}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => onSocket(ws));
  });

  const onSocket = (ws: WebSocket) => {
    const send = (data: unknown) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(data));
    };
    const unsubscribe = forwardEvents(opts.workbench, (event, payload) => send({ event, payload }));
    ws.on('message', (raw, isBinary) => {
      if (isBinary) return;
      let msg: { id?: unknown; channel?: unknown; args?: unknown };
      try {
        msg = JSON.parse(raw.toString()) as typeof msg;
      } catch {
        return;
      }
      if (typeof msg !== 'object' || msg === null || typeof msg.id !== 'number') return;
      const id = msg.id;
      void dispatch(handlers, msg.channel, msg.args).then((result) => send({ id, result }));
    });
    ws.on('close', unsubscribe);
    ws.on('error', unsubscribe);
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  guard = allowedOrigins(host, port);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  csp = contentSecurityPolicy(`ws://${shownHost}:${port}`);
  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    token,
    port,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The network of a sandboxed command limited to the domains a user allowed (Claude Code's
 * `sandbox.network.allowedDomains`, docs/security.md#claude-codes-sandbox-settings): the command has
 * no network of its own, only an HTTP proxy on its loopback (`proxy-bridge.mjs`) that leads to this
 * one, outside the sandbox, on a Unix socket. HTTPS goes through `CONNECT host:port`, plain HTTP as
 * requests with an absolute URL; any other host is refused with a 403 that says why, and noted.
 * A name allowed only by a wildcard (`*.example.com`) never leads to this machine or its link-local
 * network (a cloud's metadata service): the sandbox's own loopback is its own, and the workbench's
 * is reached only through a name the user wrote out (`localhost`, `127.0.0.1`).
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { hostAllowed, hostNamedExactly } from '../domain-pattern.ts';
import { addressGuard } from '../../net/address-guard.ts';
import { openTunnel, upstreamFor, type UpstreamProxies } from './upstream-proxy.ts';

/**
 * Why a host was refused: not in the allowed list, in the denied one, or allowed by a wildcard but
 * leading to this machine.
 */
export type RefusalReason = 'unlisted' | 'denied' | 'local';

/** The domains a command may reach: `allowed`, less `denied` (`*` denies them all). */
export interface ProxyDomains {
  allowed: readonly string[];
  denied?: readonly string[];
}

/** The proxy of one command. */
export interface DomainProxy {
  /** Where it listens, for the sandbox to bind. */
  socketPath: string;
  /** The hosts it refused, in the order first refused. */
  blocked(): { host: string; reason: RefusalReason }[];
  close(): Promise<void>;
}

/** Connections to the proxy open at once, per command (each upstream one is a second descriptor). */
const MAX_CONNECTIONS = 256;

const LOCAL_ERROR = 'ESANDBOXLOCAL';
const LOCAL = 'an address of this machine or its link-local network';

/** This machine (loopback, unspecified) and its link-local network. */
const localAddresses = addressGuard({
  ipv4: [
    ['127.0.0.0', 8],
    ['0.0.0.0', 8],
    ['169.254.0.0', 16],
  ],
  ipv6: [
    ['::1', 128],
    ['::', 128],
    ['fe80::', 10],
  ],
  why: (address) => `${address}, ${LOCAL}`,
  code: LOCAL_ERROR,
});

const refusal = (host: string) =>
  `blocked by the workbench sandbox: ${host} is not in sandbox.network.allowedDomains\n`;

const denial = (host: string) =>
  `blocked by the workbench sandbox: ${host} is denied by sandbox.network.deniedDomains or a WebFetch(domain:…) deny rule\n`;

const localRefusal = (why: string) =>
  `blocked by the workbench sandbox: ${why}; only a domain named exactly in sandbox.network.allowedDomains (not by *.) reaches it\n`;

/** `host:port` of a CONNECT target (`[::1]:443` too), or undefined; a name is letters, digits, `.`, `-` and `_`. */
function connectTarget(target: string): { host: string; port: number } | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+):(\d{1,5})$/i.exec(target);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port < 1 || port > 65535) return undefined;
  return { host: m[1]!.replace(/^\[(.*)\]$/, '$1'), port };
}

/** Ends a raw client socket with a short HTTP answer. */
function answer(socket: Duplex, status: string, body = ''): void {
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Whether `err` is the guard's refusal of a local address. */
const isLocalError = (err: Error) => (err as NodeJS.ErrnoException).code === LOCAL_ERROR;

/**
 * Resolves unless `host` resolves to a local address (then rejects with the guard's error): for a
 * name the user's proxy will resolve, checked here too. A name this machine cannot resolve is left
 * to the proxy.
 */
function notLocal(host: string): Promise<void> {
  return new Promise((resolve, reject) =>
    localAddresses.lookup(host, { all: true }, (err) =>
      err && isLocalError(err) ? reject(err) : resolve(),
    ),
  );
}

/** The request's headers without those meant for a proxy (a command's own proxy credentials). */
function forwardedHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const { 'proxy-authorization': _auth, 'proxy-connection': _connection, ...rest } = headers;
  return rest;
}

/**
 * Starts the proxy for `domains`; an allowed host is reached through `upstream` (the user's own
 * proxies, upstream-proxy.ts) when one covers it. Contract: the socket lies in a fresh folder only
 * we can enter.
 */
export async function startDomainProxy(
  domains: ProxyDomains,
  upstream: UpstreamProxies = { noProxy: [] },
): Promise<DomainProxy> {
  const { allowed, denied = [] } = domains;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wb-net-'));
  const socketPath = path.join(dir, 'proxy.sock');
  const blocked = new Map<string, RefusalReason>();
  const sockets = new Set<net.Socket>();
  /** Whether `host` may be reached; a refusal is noted with its reason. */
  const verdict = (host: string): RefusalReason | undefined => {
    const reason =
      denied.includes('*') || hostAllowed(host, denied)
        ? 'denied'
        : hostAllowed(host, allowed)
          ? undefined
          : 'unlisted';
    if (reason && !blocked.has(host)) blocked.set(host, reason);
    return reason;
  };
  const refusalOf = (host: string, reason: RefusalReason) =>
    reason === 'denied' ? denial(host) : refusal(host);
  /**
   * How to reach an allowed `host`: directly when the list names it, else never at a local address
   * (`local`: an IP literal that is one; `lookup` refuses a name resolving to one).
   */
  const route = (host: string) => {
    if (hostNamedExactly(host, allowed)) return { local: false };
    return { local: localAddresses.refused(host) !== undefined, lookup: localAddresses.lookup };
  };
  const refusedLocally = (host: string, why: string) => {
    if (!blocked.has(host)) blocked.set(host, 'local');
    return localRefusal(why);
  };
  let closed = false;
  /** A connection to an allowed host: through the user's proxy when one covers it, else directly. */
  const dial = async (
    host: string,
    port: number,
    lookup: typeof localAddresses.lookup | undefined,
  ): Promise<{ socket: Duplex; rest: Buffer }> => {
    const via = upstreamFor(upstream, 'https', host);
    if (via) {
      if (lookup) await notLocal(host);
      return openTunnel(via, host, port);
    }
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host, lookup }, () => {
        socket.off('error', reject);
        resolve({ socket, rest: Buffer.alloc(0) });
      });
      socket.once('error', reject);
    });
  };
  /** A plain-HTTP request with an absolute URL, relayed to an allowed host. */
  const relay = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res
        .writeHead(400, { 'Content-Type': 'text/plain' })
        .end('a proxy request needs an absolute URL\n');
      return;
    }
    if (url.protocol !== 'http:') {
      res
        .writeHead(400, { 'Content-Type': 'text/plain' })
        .end(`${url.protocol} goes through CONNECT\n`);
      return;
    }
    const refused = verdict(url.hostname);
    if (refused) {
      res.writeHead(403, { 'Content-Type': 'text/plain' }).end(refusalOf(url.hostname, refused));
      return;
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const { local, lookup } = route(host);
    if (local) {
      res
        .writeHead(403, { 'Content-Type': 'text/plain' })
        .end(refusedLocally(host, `${host} is ${LOCAL}`));
      return;
    }
    const fail = (err: Error) => {
      const local = isLocalError(err);
      if (!res.headersSent) res.writeHead(local ? 403 : 502, { 'Content-Type': 'text/plain' });
      res.end(
        local ? refusedLocally(host, err.message) : `could not reach ${host}: ${err.message}\n`,
      );
    };
    const via = upstreamFor(upstream, 'http', host);
    if (via && lookup) {
      try {
        await notLocal(host);
      } catch (err) {
        return fail(err as Error);
      }
    }
    const headers = forwardedHeaders(req.headers);
    const options: http.RequestOptions = via
      ? {
          host: via.host,
          port: via.port,
          path: url.href,
          headers: via.authorization
            ? { ...headers, 'proxy-authorization': via.authorization }
            : headers,
        }
      : { host, lookup, port: url.port || 80, path: `${url.pathname}${url.search}`, headers };
    const forward = (via?.tls ? https.request : http.request)(
      { ...options, method: req.method },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    forward.on('error', fail);
    req.pipe(forward);
  };
  const server = http.createServer((req, res) => {
    // Whatever a request makes fail, the workbench stays up and the command hears why.
    relay(req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`the workbench's proxy failed: ${err.message}\n`);
    });
  });
  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => client.destroy());
    const target = connectTarget(req.url ?? '');
    if (!target) return answer(client, '400 Bad Request', 'CONNECT takes host:port\n');
    const refused = verdict(target.host);
    if (refused) return answer(client, '403 Forbidden', refusalOf(target.host, refused));
    const { local, lookup } = route(target.host);
    if (local)
      return answer(
        client,
        '403 Forbidden',
        refusedLocally(target.host, `${target.host} is ${LOCAL}`),
      );
    dial(target.host, target.port, lookup).then(
      ({ socket, rest }) => {
        if (closed || client.destroyed) return socket.destroy();
        const tracked = socket as net.Socket;
        sockets.add(tracked);
        socket.on('close', () => sockets.delete(tracked));
        socket.on('error', () => client.destroy());
        client.on('close', () => socket.destroy());
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (rest.length) client.write(rest);
        if (head.length) socket.write(head);
        socket.pipe(client);
        client.pipe(socket);
      },
      (err: Error) =>
        isLocalError(err)
          ? answer(client, '403 Forbidden', refusedLocally(target.host, err.message))
          : answer(client, '502 Bad Gateway', `could not reach ${target.host}: ${err.message}\n`),
    );
  });
  // A command that floods the proxy cannot take the workbench's file descriptors with it.
  server.maxConnections = MAX_CONNECTIONS;
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    socketPath,
    blocked: () => [...blocked].map(([host, reason]) => ({ host, reason })),
    async close() {
      closed = true;
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

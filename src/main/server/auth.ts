/**
 * Token and origin checks of `workbench serve`: every API/socket request needs the random token
 * (cookie set on first page load, `x-workbench-token` header or `token` query) and, when it comes
 * from a browser, a same-origin `Origin`. The `Host` header is checked too (DNS rebinding).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_COOKIE = 'wb_token';
export const TOKEN_HEADER = 'x-workbench-token';

/** A random 32-byte token, hex. */
export function newToken(): string {
  return randomBytes(32).toString('hex');
}

/** Constant-time comparison of two tokens. */
export function tokensEqual(a: string | undefined, b: string): boolean {
  if (typeof a !== 'string') return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Parses a Cookie header into a map (first value wins). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const name = part.slice(0, i).trim();
    if (!out.has(name)) out.set(name, part.slice(i + 1).trim());
  }
  return out;
}

/** The token a request presents: header, then cookie, then `?token=`. */
export function presentedToken(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers[TOKEN_HEADER];
  if (typeof header === 'string') return header;
  const cookie = parseCookies(req.headers.cookie).get(TOKEN_COOKIE);
  if (cookie) return cookie;
  return url.searchParams.get('token') ?? undefined;
}

/** The Host headers this server answers to for `host:port`; undefined = any (wildcard bind). */
export function allowedOrigins(host: string, port: number): { hosts: Set<string> | undefined } {
  if (host === '0.0.0.0' || host === '::') return { hosts: undefined };
  const h = host.includes(':') ? `[${host}]` : host;
  const hosts = new Set([`${h}:${port}`]);
  if (host === '127.0.0.1' || host === 'localhost' || host === '::1') {
    hosts.add(`127.0.0.1:${port}`);
    hosts.add(`localhost:${port}`);
    hosts.add(`[::1]:${port}`);
  }
  return { hosts };
}

/**
 * Why a request is refused, or undefined when it passes: a Host we do not serve (DNS rebinding), an
 * `Origin` other than this server's own (`http://<Host>`), a missing Origin when `requireOrigin`
 * (socket and API calls; a non-browser client may send the token header instead), or no valid token.
 */
export function refusal(
  req: IncomingMessage,
  url: URL,
  opts: { token: string; hosts: Set<string> | undefined; requireOrigin: boolean },
): { status: 401 | 403; reason: string } | undefined {
  const host = req.headers.host ?? '';
  if (!host || (opts.hosts && !opts.hosts.has(host))) return { status: 403, reason: 'unexpected Host header' };
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) return { status: 403, reason: 'cross-origin request refused' };
  if (opts.requireOrigin && origin === undefined && req.headers[TOKEN_HEADER] === undefined) {
    return { status: 403, reason: 'missing Origin' };
  }
  if (!tokensEqual(presentedToken(req, url), opts.token)) return { status: 401, reason: 'missing or wrong token' };
  return undefined;
}

/**
 * The proxy of the user's environment under the sandbox's domain proxy (docs/security.md#claude-codes-sandbox-settings):
 * `HTTPS_PROXY` for tunnels, `HTTP_PROXY` for plain requests, `NO_PROXY` for the hosts reached
 * directly (lower-case names first, as curl reads them). A host the domain proxy allowed is reached
 * through it, as the user's other programs reach the network, so a network where only a proxy leads
 * out works for sandboxed commands too. http:// and https:// proxies; the credentials in a proxy's URL
 * go to that proxy only, never to a command or into a message.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';

export interface UpstreamProxy {
  host: string;
  port: number;
  tls: boolean;
  /** `Proxy-Authorization` for the credentials in its URL. */
  authorization?: string;
  /** `host:port`, for messages. */
  label: string;
}

export interface UpstreamProxies {
  http?: UpstreamProxy;
  https?: UpstreamProxy;
  noProxy: readonly string[];
}

/** How long a proxy may take to answer a CONNECT. */
const HANDSHAKE_MS = 30_000;
/** The most of a proxy's answer head read before giving up on it. */
const MAX_HEAD_BYTES = 64 * 1024;

const variable = (env: Readonly<Record<string, string | undefined>>, name: string) =>
  env[name.toLowerCase()] || env[name] || undefined;

/** One proxy URL; undefined when empty or not http(s) (a SOCKS proxy is not used). */
function parseProxy(value: string | undefined): UpstreamProxy | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // No port: curl's default for a proxy.
  const port = url.port ? Number(url.port) : 1080;
  const user = decodeURIComponent(url.username);
  const authorization = user
    ? `Basic ${Buffer.from(`${user}:${decodeURIComponent(url.password)}`).toString('base64')}`
    : undefined;
  return {
    host,
    port,
    tls: url.protocol === 'https:',
    authorization,
    label: `${url.hostname}:${port}`,
  };
}

/** The proxies `env` names. */
export function upstreamProxies(
  env: Readonly<Record<string, string | undefined>>,
): UpstreamProxies {
  return {
    http: parseProxy(variable(env, 'HTTP_PROXY')),
    https: parseProxy(variable(env, 'HTTPS_PROXY')),
    noProxy: (variable(env, 'NO_PROXY') ?? '')
      .split(/[\s,]+/)
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  };
}

/** Whether a `NO_PROXY` entry covers `host`: `*`, the name, a name under it, an address or a CIDR range. */
function bypasses(entry: string, host: string): boolean {
  if (entry === '*') return true;
  const cidr = /^([0-9a-f:.]+)\/(\d{1,3})$/.exec(entry);
  if (cidr) {
    const family = net.isIP(cidr[1]!);
    if (family === 0 || net.isIP(host) !== family) return false;
    const list = new net.BlockList();
    try {
      list.addSubnet(cidr[1]!, Number(cidr[2]), family === 4 ? 'ipv4' : 'ipv6');
    } catch {
      return false;
    }
    return list.check(host, family === 4 ? 'ipv4' : 'ipv6');
  }
  const name = entry
    .replace(/^\[(.*)\](:\d+)?$/, '$1')
    .replace(/^([^:]+):\d+$/, '$1')
    .replace(/^\*?\./, '');
  return host === name || host.endsWith(`.${name}`);
}

/** The proxy to reach `host` through for a tunnel (`https`) or a plain request (`http`); undefined: directly. */
export function upstreamFor(
  proxies: UpstreamProxies,
  kind: 'http' | 'https',
  host: string,
): UpstreamProxy | undefined {
  const proxy = proxies[kind];
  if (!proxy) return undefined;
  const h = host.toLowerCase().replace(/\.$/, '');
  return proxies.noProxy.some((e) => bypasses(e, h)) ? undefined : proxy;
}

/** `host:port` as a request target (`[::1]:443` for an IPv6 address). */
export const authority = (host: string, port: number) =>
  `${net.isIP(host) === 6 ? `[${host}]` : host}:${port}`;

/**
 * A tunnel to `host:port` through `proxy`: the socket once the proxy answered 2xx to our CONNECT,
 * with any bytes it sent past its answer. Rejects with what the proxy answered, or why it could not
 * be reached, in words without its credentials.
 */
export function openTunnel(
  proxy: UpstreamProxy,
  host: string,
  port: number,
): Promise<{ socket: Duplex; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    const target = authority(host, port);
    const socket = proxy.tls
      ? tls.connect({
          host: proxy.host,
          port: proxy.port,
          servername: net.isIP(proxy.host) ? undefined : proxy.host,
        })
      : net.connect(proxy.port, proxy.host);
    let head = Buffer.alloc(0);
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(new Error(`through the proxy ${proxy.label}: ${why}`));
    };
    socket.setTimeout(HANDSHAKE_MS, () =>
      fail(`no answer to CONNECT within ${HANDSHAKE_MS / 1000} s`),
    );
    socket.once(proxy.tls ? 'secureConnect' : 'connect', () =>
      socket.write(
        `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${
          proxy.authorization ? `Proxy-Authorization: ${proxy.authorization}\r\n` : ''
        }\r\n`,
      ),
    );
    socket.on('error', (err) => fail(err.message));
    socket.on('end', () => fail('it closed the connection'));
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD_BYTES) fail('its answer has no end');
        return;
      }
      socket.off('data', onData);
      const status = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      if (!/^HTTP\/1\.[01] 2\d\d/.test(status))
        return fail(`it answered "${status.slice(0, 200)}"`);
      settled = true;
      socket.setTimeout(0);
      socket.pause();
      resolve({ socket, rest: head.subarray(end + 4) });
    };
    socket.on('data', onData);
  });
}

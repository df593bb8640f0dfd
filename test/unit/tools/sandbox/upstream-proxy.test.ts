/**
 * The user's own proxy under the sandbox's domain proxy: an allowed host is reached through
 * `HTTPS_PROXY` / `HTTP_PROXY` (with their credentials, which no command sees), `NO_PROXY` is
 * honoured, and a refused host never reaches it.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { talk } from '../../../helpers/proxy-talk.ts';
import { startDomainProxy } from '../../../../src/main/tools/sandbox/domain-proxy.ts';
import { upstreamFor, upstreamProxies } from '../../../../src/main/tools/sandbox/upstream-proxy.ts';

describe('upstreamProxies', () => {
  it('reads the variables as curl does: lower-case first, no scheme as http, credentials kept for the proxy, SOCKS left out', () => {
    const p = upstreamProxies({
      HTTPS_PROXY: 'http://upper:1',
      https_proxy: 'corp.example:3128',
      HTTP_PROXY: 'http://me:p%40ss@[::1]:8080',
      NO_PROXY: '.internal, localhost:5000 10.0.0.0/8,[::2]',
    });
    expect(p.https).toEqual({
      host: 'corp.example',
      port: 3128,
      tls: false,
      authorization: undefined,
      label: 'corp.example:3128',
    });
    expect(p.http).toMatchObject({ host: '::1', port: 8080, label: '[::1]:8080' });
    expect(p.http!.authorization).toBe(`Basic ${Buffer.from('me:p@ss').toString('base64')}`);
    expect(upstreamProxies({ HTTPS_PROXY: 'socks5://corp:1080' }).https).toBeUndefined();
    expect(upstreamProxies({ HTTPS_PROXY: 'https://corp' }).https).toMatchObject({
      tls: true,
      port: 1080,
    });
    for (const direct of ['a.internal', 'internal', 'localhost', '10.1.2.3', '::2'])
      expect(upstreamFor(p, 'https', direct), direct).toBeUndefined();
    for (const proxied of ['example.com', 'notinternal', '11.1.2.3', '::3'])
      expect(upstreamFor(p, 'https', proxied), proxied).toBeDefined();
    expect(upstreamFor({ ...p, noProxy: ['*'] }, 'https', 'example.com')).toBeUndefined();
    expect(upstreamFor(upstreamProxies({}), 'https', 'example.com')).toBeUndefined();
  });
});

describe('the domain proxy through the user proxy', () => {
  let target: http.Server;
  let targetPort: number;
  let corporate: http.Server;
  let corporatePort: number;
  /** What the corporate proxy was asked: `CONNECT host:port auth` or `GET url auth`. */
  let seen: string[];
  /** Proxy-Authorization it requires; otherwise it answers 407. */
  const required = `Basic ${Buffer.from('me:s3cret').toString('base64')}`;

  beforeAll(async () => {
    target = http.createServer((req, res) => res.end(`target saw ${req.url}`));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
    targetPort = (target.address() as net.AddressInfo).port;
    corporate = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers['proxy-authorization'] ?? '-'}`);
      res.end(`corporate proxy relayed ${req.url}`);
    });
    corporate.on('connect', (req: http.IncomingMessage, client: net.Socket) => {
      seen.push(`CONNECT ${req.url} ${req.headers['proxy-authorization'] ?? '-'}`);
      if (req.headers['proxy-authorization'] !== required) {
        client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
        return;
      }
      const [host, port] = req.url!.split(':');
      const up = net.connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection established\r\n\r\n');
        up.pipe(client);
        client.pipe(up);
      });
      up.on('error', () => client.destroy());
    });
    await new Promise<void>((r) => corporate.listen(0, '127.0.0.1', () => r()));
    corporatePort = (corporate.address() as net.AddressInfo).port;
  });
  beforeEach(() => {
    seen = [];
  });
  afterAll(async () => {
    await new Promise<void>((r) => target.close(() => r()));
    corporate.closeAllConnections();
    await new Promise<void>((r) => corporate.close(() => r()));
  });

  it('tunnels an allowed host through HTTPS_PROXY with its credentials, relays plain requests to HTTP_PROXY, and never asks it for a refused host', async () => {
    const proxyUrl = `http://me:s3cret@127.0.0.1:${corporatePort}`;
    const proxy = await startDomainProxy(
      { allowed: ['127.0.0.1', '*.localhost'] },
      upstreamProxies({ HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl }),
    );
    try {
      const tunnel = await talk(
        proxy.socketPath,
        `CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\n\r\nGET /through HTTP/1.1\r\nHost: x\r\n\r\n`,
        /target saw \/through/,
      );
      expect(tunnel).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK/);
      const plain = await talk(
        proxy.socketPath,
        `GET http://127.0.0.1:${targetPort}/plain HTTP/1.1\r\nHost: 127.0.0.1\r\nProxy-Authorization: Basic Y29tbWFuZA==\r\nConnection: close\r\n\r\n`,
      );
      expect(plain).toContain(`corporate proxy relayed http://127.0.0.1:${targetPort}/plain`);
      await talk(proxy.socketPath, 'CONNECT example.com:443 HTTP/1.1\r\n\r\n');
      // A name only a wildcard allows is looked up here first: it leads to this machine.
      expect(
        await talk(proxy.socketPath, `CONNECT localhost:${targetPort} HTTP/1.1\r\n\r\n`),
      ).toMatch(/^HTTP\/1\.1 403 Forbidden/);
      expect(seen).toEqual([
        `CONNECT 127.0.0.1:${targetPort} ${required}`,
        `GET http://127.0.0.1:${targetPort}/plain ${required}`,
      ]);
    } finally {
      await proxy.close();
    }
  });

  it("says what the user's proxy answered, without its credentials, and goes direct for NO_PROXY", async () => {
    const wrong = await startDomainProxy(
      { allowed: ['127.0.0.1'] },
      upstreamProxies({ HTTPS_PROXY: `http://me:wr0ng@127.0.0.1:${corporatePort}` }),
    );
    const bypassed = await startDomainProxy(
      { allowed: ['127.0.0.1'] },
      upstreamProxies({
        HTTPS_PROXY: `http://127.0.0.1:${corporatePort}`,
        NO_PROXY: '127.0.0.0/8',
      }),
    );
    try {
      const refused = await talk(
        wrong.socketPath,
        `CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\n\r\n`,
      );
      expect(refused).toMatch(/^HTTP\/1\.1 502 Bad Gateway/);
      expect(refused).toContain(
        `could not reach 127.0.0.1: through the proxy 127.0.0.1:${corporatePort}: it answered "HTTP/1.1 407 Proxy Authentication Required"`,
      );
      expect(refused).not.toContain('wr0ng');
      const direct = await talk(
        bypassed.socketPath,
        `CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\n\r\nGET /direct HTTP/1.1\r\nHost: x\r\n\r\n`,
        /target saw \/direct/,
      );
      expect(direct).toMatch(/^HTTP\/1\.1 200 Connection Established/);
      expect(seen).toEqual([
        `CONNECT 127.0.0.1:${targetPort} Basic ${Buffer.from('me:wr0ng').toString('base64')}`,
      ]);
    } finally {
      await wrong.close();
      await bypassed.close();
    }
  });
});

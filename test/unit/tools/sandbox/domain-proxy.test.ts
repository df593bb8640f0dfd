/** The proxy that limits a sandboxed command's network to the allowed domains, over its Unix socket. */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { talk } from '../../../helpers/proxy-talk.ts';
import { hostAllowed, hostNamedExactly } from '../../../../src/main/tools/domain-pattern.ts';
import { startDomainProxy } from '../../../../src/main/tools/sandbox/domain-proxy.ts';

describe('hostAllowed', () => {
  it('matches names exactly, *.name the name and every name under it, case and a final dot aside', () => {
    const allowed = ['registry.npmjs.org', '*.github.com', '::1'];
    expect(hostAllowed('registry.npmjs.org', allowed)).toBe(true);
    expect(hostAllowed('REGISTRY.npmjs.org.', allowed)).toBe(true);
    expect(hostAllowed('npmjs.org', allowed)).toBe(false);
    expect(hostAllowed('evil-registry.npmjs.org', allowed)).toBe(false);
    expect(hostAllowed('github.com', allowed)).toBe(true);
    expect(hostAllowed('api.github.com', allowed)).toBe(true);
    expect(hostAllowed('github.com.evil.io', allowed)).toBe(false);
    expect(hostAllowed('notgithub.com', allowed)).toBe(false);
    expect(hostAllowed('[::1]', allowed)).toBe(true);
  });

  it('tells a name written out from one only a wildcard allows', () => {
    const allowed = ['Localhost.', '*.github.com', '::1'];
    expect(hostNamedExactly('localhost', allowed)).toBe(true);
    expect(hostNamedExactly('[::1]', allowed)).toBe(true);
    expect(hostNamedExactly('api.github.com', allowed)).toBe(false);
    expect(hostNamedExactly('github.com', allowed)).toBe(false);
  });
});

describe('startDomainProxy', () => {
  let upstream: http.Server;
  let port: number;
  beforeAll(async () => {
    upstream = http.createServer((req, res) => res.end(`upstream saw ${req.method} ${req.url}\n`));
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
    port = (upstream.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

  it('tunnels CONNECT to an allowed host and relays absolute-URL requests; refuses any other host with a 403 that says why, and notes it', async () => {
    const proxy = await startDomainProxy({ allowed: ['127.0.0.1'] });
    try {
      const tunnel = await talk(
        proxy.socketPath,
        `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\nGET /through HTTP/1.1\r\nHost: x\r\n\r\n`,
        /upstream saw GET \/through/,
      );
      expect(tunnel).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK/);
      const plain = await talk(
        proxy.socketPath,
        `GET http://127.0.0.1:${port}/plain?q=1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
      );
      expect(plain).toMatch(/upstream saw GET \/plain\?q=1/);
      const refused = await talk(
        proxy.socketPath,
        'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      );
      expect(refused).toMatch(/^HTTP\/1\.1 403 Forbidden/);
      expect(refused).toContain(
        'blocked by the workbench sandbox: example.com is not in sandbox.network.allowedDomains',
      );
      const refusedPlain = await talk(
        proxy.socketPath,
        'GET http://localhost:1/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      );
      expect(refusedPlain).toMatch(/^HTTP\/1\.1 403 Forbidden/);
      expect(await talk(proxy.socketPath, 'CONNECT nonsense HTTP/1.1\r\n\r\n')).toMatch(
        /^HTTP\/1\.1 400/,
      );
      expect(proxy.blocked()).toEqual([
        { host: 'example.com', reason: 'unlisted' },
        { host: 'localhost', reason: 'unlisted' },
      ]);
    } finally {
      await proxy.close();
    }
  });

  it('never leads a name only a wildcard allowed to this machine or its link-local network; a name written out reaches it', async () => {
    const wildcard = await startDomainProxy({
      allowed: ['*.localhost', '*.0.0.1', '*.254.169.254'],
    });
    const exact = await startDomainProxy({ allowed: ['localhost'] });
    try {
      const connect = (host: string) =>
        talk(wildcard.socketPath, `CONNECT ${host}:${port} HTTP/1.1\r\n\r\n`);
      const byName = await connect('localhost');
      expect(byName).toMatch(/^HTTP\/1\.1 403 Forbidden/);
      expect(byName).toContain(
        'blocked by the workbench sandbox: localhost resolves to 127.0.0.1, an address of this machine or its link-local network; only a domain named exactly in sandbox.network.allowedDomains (not by *.) reaches it',
      );
      expect(await connect('127.0.0.1')).toContain(
        '127.0.0.1 is an address of this machine or its link-local network',
      );
      expect(await connect('[::ffff:127.0.0.1]')).toMatch(/^HTTP\/1\.1 403 Forbidden/);
      expect(await connect('169.254.169.254')).toMatch(/^HTTP\/1\.1 403 Forbidden/);
      const plain = await talk(
        wildcard.socketPath,
        `GET http://localhost:${port}/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      );
      expect(plain).toMatch(/^HTTP\/1\.1 403 Forbidden/);
      expect(plain).not.toContain('upstream saw');
      expect(wildcard.blocked()).toEqual([
        { host: 'localhost', reason: 'local' },
        { host: '127.0.0.1', reason: 'local' },
        { host: '::ffff:127.0.0.1', reason: 'local' },
        { host: '169.254.169.254', reason: 'local' },
      ]);
      const through = await talk(
        exact.socketPath,
        `CONNECT localhost:${port} HTTP/1.1\r\n\r\nGET /mine HTTP/1.1\r\nHost: x\r\n\r\n`,
        /upstream saw GET \/mine/,
      );
      expect(through).toMatch(/^HTTP\/1\.1 200 Connection Established/);
      expect(exact.blocked()).toEqual([]);
    } finally {
      await wildcard.close();
      await exact.close();
    }
  });

  it('refuses a denied host whatever the allowed list says, and says why; * denies every host', async () => {
    const proxy = await startDomainProxy({
      allowed: ['127.0.0.1', '*.example.com'],
      denied: ['127.0.0.1', 'gist.example.com'],
    });
    const all = await startDomainProxy({ allowed: ['127.0.0.1'], denied: ['*'] });
    try {
      const denied = await talk(proxy.socketPath, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`);
      expect(denied).toMatch(/^HTTP\/1\.1 403 Forbidden/);
      expect(denied).toContain(
        'blocked by the workbench sandbox: 127.0.0.1 is denied by sandbox.network.deniedDomains or a WebFetch(domain:…) deny rule',
      );
      const plain = await talk(
        proxy.socketPath,
        'GET http://GIST.example.com/x HTTP/1.1\r\nHost: gist.example.com\r\nConnection: close\r\n\r\n',
      );
      expect(plain).toMatch(/^HTTP\/1\.1 403 Forbidden/);
      expect(proxy.blocked()).toEqual([
        { host: '127.0.0.1', reason: 'denied' },
        { host: 'gist.example.com', reason: 'denied' },
      ]);
      expect(await talk(all.socketPath, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`)).toMatch(
        /^HTTP\/1\.1 403 Forbidden/,
      );
    } finally {
      await proxy.close();
      await all.close();
    }
  });

  it('refuses a CONNECT target that is not a plain host name or address', async () => {
    const proxy = await startDomainProxy({ allowed: ['*.example.com'] });
    try {
      for (const target of [
        'evil.com#.example.com:443',
        'a b.example.com:443',
        '[fe80::1%eth0]:443',
      ])
        expect(await talk(proxy.socketPath, `CONNECT ${target} HTTP/1.1\r\n\r\n`), target).toMatch(
          /^HTTP\/1\.1 400 Bad Request/,
        );
      expect(proxy.blocked()).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it("holds at most 256 connections at once: a command flooding it cannot take the workbench's descriptors", async () => {
    const proxy = await startDomainProxy({ allowed: [] });
    const sockets = Array.from({ length: 300 }, () => net.connect(proxy.socketPath));
    const closed = sockets.map(
      (s) =>
        new Promise<boolean>((resolve) => {
          s.on('error', () => {});
          s.on('close', () => resolve(true));
          setTimeout(() => resolve(false), 500);
        }),
    );
    const dropped = (await Promise.all(closed)).filter(Boolean).length;
    expect(dropped).toBe(300 - 256);
    for (const s of sockets) s.destroy();
    await proxy.close();
  });

  it('answers 502 when an allowed host cannot be reached, and removes its socket when closed', async () => {
    const proxy = await startDomainProxy({ allowed: ['127.0.0.1'] });
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const deadPort = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const answer = await talk(proxy.socketPath, `CONNECT 127.0.0.1:${deadPort} HTTP/1.1\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 502 Bad Gateway/);
    await proxy.close();
    await expect(talk(proxy.socketPath, 'x')).rejects.toThrow(/ENOENT/);
  });
});

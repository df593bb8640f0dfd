import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer, type RunningServer } from '../../../src/main/server/server.ts';
import { createStubWorkbench } from './stub-workbench.ts';

function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET', body?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function connect(url: string, headers: Record<string, string>) {
  return new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => resolve(ws));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

describe('workbench serve transport', () => {
  const root = mkdtempSync(join(tmpdir(), 'wb-serve-'));
  const dist = join(root, 'renderer');
  const wb = createStubWorkbench();
  let server: RunningServer;
  let origin: string;
  let cookie: string;

  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>wb</title>');
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(root, 'secret.txt'), 'top secret');
    symlinkSync(join(root, 'secret.txt'), join(dist, 'assets', 'link.txt'));
    server = await startServer({ workbench: wb, rendererDir: dist, port: 0 });
    origin = `http://127.0.0.1:${server.port}`;
    cookie = `wb_token=${server.token}`;
  });
  afterAll(() => server.close());

  it('prints a loopback URL with a 32-byte token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
  });

  it('refuses pages and API calls without the token', async () => {
    expect((await get(server.port, '/')).status).toBe(401);
    expect((await get(server.port, '/api/threads.list', { origin }, 'POST', '{}')).status).toBe(401);
    expect((await get(server.port, '/?token=wrong')).status).toBe(401);
  });

  it('sets an HttpOnly cookie from the URL token and redirects', async () => {
    const r = await get(server.port, `/?token=${server.token}`);
    expect(r.status).toBe(302);
    expect(String(r.headers['set-cookie'])).toMatch(/wb_token=[0-9a-f]{64}; HttpOnly; SameSite=Strict/);
    const page = await get(server.port, '/', { cookie });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const js = await get(server.port, '/assets/app.js', { cookie });
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('refuses path traversal', async () => {
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/assets/link.txt', '/assets/%00.js']) {
      const r = await get(server.port, p, { cookie });
      expect(r.body).not.toContain('top secret');
    }
  });

  it('refuses another origin and a foreign Host', async () => {
    expect((await get(server.port, '/api/threads.list', { cookie, origin: 'http://evil.example' }, 'POST', '{}')).status).toBe(403);
    expect((await get(server.port, '/', { cookie, host: 'evil.example' })).status).toBe(403);
  });

  it('answers API calls with the token and a same origin', async () => {
    const r = await get(server.port, '/api/threads.list', { cookie, origin, 'content-type': 'application/json' }, 'POST', '{}');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ ok: true, value: [] });
  });

  it('refuses sockets without token or with a foreign origin', async () => {
    const ws = `ws://127.0.0.1:${server.port}/ws`;
    await expect(connect(ws, { origin })).rejects.toThrow(/401/);
    await expect(connect(ws, { origin: 'http://evil.example', cookie })).rejects.toThrow(/403/);
    await expect(connect(ws, { cookie })).rejects.toThrow(/403/);
  });

  it('carries calls and events over the socket', async () => {
    const ws = await connect(`ws://127.0.0.1:${server.port}/ws`, { origin, cookie });
    const messages: unknown[] = [];
    ws.on('message', (m) => messages.push(JSON.parse(m.toString())));
    ws.send(JSON.stringify({ id: 1, channel: 'chat.send', args: { text: 'hi' } }));
    ws.send(JSON.stringify({ id: 2, channel: 'evil.channel', args: {} }));
    await new Promise((r) => setTimeout(r, 100));
    wb.emit({ event: 'on_chat_model_stream', data: { delta: 'x' }, run_id: 'r1', thread_id: 't1' });
    await new Promise((r) => setTimeout(r, 100));
    expect(messages).toContainEqual({ id: 1, result: { ok: true, value: { threadId: 't1', runId: 'r1' } } });
    expect(messages).toContainEqual({ id: 2, result: { ok: false, error: expect.objectContaining({ code: 'unknown_channel' }) } });
    expect(messages).toContainEqual({ event: 'agent.event', payload: { seq: 1, event: expect.objectContaining({ event: 'on_chat_model_stream' }) } });
    ws.close();
  });
});

describe('origin check', () => {
  it('accepts localhost and 127.0.0.1 as the same loopback server but not another port', async () => {
    const { refusal, allowedOrigins } = await import('../../../src/main/server/auth.ts');
    const guard = allowedOrigins('127.0.0.1', 4000);
    const req = (headers: Record<string, string>) => ({ headers }) as never;
    const url = new URL('http://x/?token=t');
    expect(refusal(req({ host: 'localhost:4000', origin: 'http://localhost:4000' }), url, { token: 't', ...guard, requireOrigin: true })).toBeUndefined();
    expect(refusal(req({ host: '127.0.0.1:4000', origin: 'http://127.0.0.1:4001' }), url, { token: 't', ...guard, requireOrigin: true })?.status).toBe(403);
    expect(refusal(req({ host: 'attacker.example:4000', origin: 'http://attacker.example:4000' }), url, { token: 't', ...guard, requireOrigin: true })?.status).toBe(403);
    const wild = allowedOrigins('0.0.0.0', 4000);
    expect(refusal(req({ host: '192.168.1.5:4000', origin: 'http://192.168.1.5:4000' }), url, { token: 't', ...wild, requireOrigin: true })).toBeUndefined();
    expect(refusal(req({ host: '192.168.1.5:4000', origin: 'http://evil.example' }), url, { token: 't', ...wild, requireOrigin: true })?.status).toBe(403);
  });
});

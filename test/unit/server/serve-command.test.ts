import { mkdtempSync, mkdirSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveCommand } from '../../../src/main/cli/commands/serve.ts';
import { createFileSecrets } from '../../../src/main/server/secrets-file.ts';
import { UsageError } from '../../../src/main/cli/types.ts';

function io(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), env, cwd: process.cwd() } };
}

describe('workbench serve command', () => {
  it('refuses a bad port and a missing renderer build', async () => {
    await expect(serveCommand(['--port', 'x'], io().io)).rejects.toBeInstanceOf(UsageError);
    const t = io();
    expect(await serveCommand(['--renderer-dir', mkdtempSync(join(tmpdir(), 'wb-empty-'))], t.io)).toBe(1);
    expect(t.err.join('')).toMatch(/npm run build/);
  });

  it('prints a tokened loopback URL, warns for other hosts, and stops on SIGTERM', async () => {
    const base = mkdtempSync(join(tmpdir(), 'wb-serve-cmd-'));
    const dist = join(base, 'dist');
    mkdirSync(dist);
    writeFileSync(join(dist, 'index.html'), '<!doctype html>');
    const t = io({ WORKBENCH_HOME: join(base, 'home') });
    const running = serveCommand(['--host', '0.0.0.0', '--port', '0', '--workspace', base, '--renderer-dir', dist], t.io);
    for (let i = 0; i < 100 && !t.out.join('').includes('token='); i++) await new Promise((r) => setTimeout(r, 50));
    expect(t.out.join('')).toMatch(/http:\/\/0\.0\.0\.0:\d+\/\?token=[0-9a-f]{64}/);
    expect(t.err.join('')).toMatch(/WARNING/);
    process.emit('SIGTERM');
    expect(await running).toBe(0);
  });
});

describe('serve key file', () => {
  it('keeps a typed key in secrets.json (0600), the env key otherwise', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-secrets-'));
    const s = createFileSecrets(home, 'sk-env');
    expect(s.get()).toBe('sk-env');
    expect(s.storage()).toBe('env');
    await s.set('sk-typed');
    expect(statSync(s.path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(s.path, 'utf8'))).toEqual({ openai_api_key: 'sk-typed' });
    expect(createFileSecrets(home).get()).toBe('sk-typed');
    await s.set(null);
    expect(s.get()).toBe('sk-env');
  });
});

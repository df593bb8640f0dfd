/** User hooks through the real `workbench` CLI process: --trust, --no-hooks, trust command, exit 3, env. */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../helpers/fake-openai-server.ts';
import { runCli, sandbox } from '../../helpers/run-cli.ts';

const ZOO = resolve(import.meta.dirname, '../../fixtures/hook-zoo/zoo');
let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function install(workspace: string, name: string): void {
  const dir = join(workspace, '.workbench', 'hooks');
  mkdirSync(dir, { recursive: true });
  copyFileSync(ZOO, join(dir, name));
  chmodSync(join(dir, name), 0o755);
}

describe('workbench CLI with user hooks', () => {
  it('--trust runs workspace hooks for one run: a blocked message exits 3 with the reason', async () => {
    const env = await sandbox();
    install(env.workspace, 'user_message_send--block');
    const r = await runCli(['run', '--trust', 'hello'], env);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('blocked by hook user_message_send--block: policy of user_message_send--block');
  });

  it('an untrusted workspace runs none of its hooks; `workbench trust` keeps trust; --no-hooks turns them off', async () => {
    const env = await sandbox();
    install(env.workspace, 'user_message_send--block');
    fake = await startFakeOpenAi({ script: [{ text: 'hi there' }, { text: 'again' }] });
    const withServer = { ...env, baseURL: fake.baseURL };
    const untrusted = await runCli(['run', 'hello'], withServer);
    expect(untrusted.code).toBe(0);
    expect(untrusted.stdout).toContain('hi there');

    expect((await runCli(['trust', '.'], env)).code).toBe(0);
    const trusted = await runCli(['run', 'hello'], withServer);
    expect(trusted.code).toBe(3);

    const off = await runCli(['run', '--no-hooks', 'hello'], withServer);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('again');
  });

  it('a hook never sees the API key', async () => {
    const env = await sandbox();
    install(env.workspace, 'user_message_send--env-dump');
    fake = await startFakeOpenAi({ script: [{ text: 'ok' }] });
    const r = await runCli(['run', '--trust', 'hello'], { ...env, baseURL: fake.baseURL });
    expect(r.code).toBe(0);
    const dump = join(env.workspace, 'env-user_message_send--env-dump.txt');
    expect(existsSync(dump)).toBe(true);
    const text = readFileSync(dump, 'utf8');
    expect(text).toContain(`WORKBENCH_PROJECT_DIR=${env.workspace}`);
    expect(text).not.toContain('sk-test-key');
    expect(text).not.toContain('OPENAI_API_KEY');
  });
});

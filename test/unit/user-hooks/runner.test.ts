import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runHookProcess, STDOUT_CAP_BYTES, STDERR_CAP_BYTES } from '../../../src/main/user-hooks/runner.ts';
import { buildHookEnv, isAllowedEnvName } from '../../../src/main/env/child-env.ts';
import { endHookLauncher, startHookLauncher } from '../../../src/main/user-hooks/launcher/launcher.ts';
import { installFixture, installZoo, sandbox, ZOO, type Sandbox } from './helpers.ts';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());
afterAll(() => endHookLauncher());

/**
 * Every guard holds whoever starts the hook: this process (a test's first hook after the launcher
 * ended) or the hook launcher (docs/hooks.md#how-a-hook-is-started).
 */
const starters = [
  { by: 'started here', before: () => endHookLauncher() },
  { by: 'started by the launcher', before: async () => expect(await startHookLauncher()).toBe(true) },
];

const run = (path: string, timeoutMs = 5000, stdin = '{}', graceMs?: number) =>
  runHookProcess({ command: path, args: ['run'], cwd: sb.ws, env: buildHookEnv(sb.ws), stdin, timeoutMs, graceMs });

describe.each(starters)('runHookProcess, $by', ({ before }) => {
  beforeEach(before);
  it('kills a hook that sleeps forever at its deadline', async () => {
    const started = Date.now();
    const res = await run(installZoo(sb.wsHooks, 'before_tool_call--sleep-forever'), 500, '{}', 500);
    expect(res.timedOut).toBe(true);
    expect(res.exitCode).toBeNull();
    expect(res.signal).toBe('SIGTERM');
    expect(Date.now() - started).toBeLessThan(500 + 500 + 3000);
  });

  it('escalates to SIGKILL when SIGTERM is ignored', async () => {
    const started = Date.now();
    const res = await run(installZoo(sb.wsHooks, 'before_tool_call--ignore-term'), 500, '{}', 500);
    expect(res.timedOut).toBe(true);
    expect(res.signal).toBe('SIGKILL');
    expect(Date.now() - started).toBeLessThan(500 + 500 + 3000);
  });

  it('resolves even for a stopped process (parent-side deadline)', async () => {
    const started = Date.now();
    const res = await runHookProcess({ command: '/bin/sh', args: ['-c', 'kill -STOP $$'], cwd: sb.ws, env: buildHookEnv(sb.ws), timeoutMs: 300, graceMs: 300 });
    expect(res.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(300 + 300 + 3000);
  });

  it('does not wait for a grandchild holding stdout', async () => {
    const started = Date.now();
    const res = await run(installZoo(sb.wsHooks, 'before_tool_call--grandchild'), 20_000);
    expect(res.timedOut).toBe(false);
    expect(res.exitCode).toBe(0);
    expect(res.stdout.trim()).toBe('{"blocked":false}');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('caps 100 MB of stdout at 1 MiB while draining the rest', async () => {
    const res = await run(installZoo(sb.wsHooks, 'before_tool_call--flood'), 30_000);
    expect(res.exitCode).toBe(0);
    expect(res.stdoutTruncated).toBe(true);
    expect(res.stdout.length).toBe(STDOUT_CAP_BYTES);
    expect(res.stdoutBytes).toBe(100_000_000);
  });

  it('caps stderr at 256 KiB and still reads stdout', async () => {
    const res = await run(installZoo(sb.wsHooks, 'before_tool_call--flood-stderr'), 30_000);
    expect(res.stderrTruncated).toBe(true);
    expect(res.stderr.length).toBe(STDERR_CAP_BYTES);
    expect(res.stdoutTruncated).toBe(false);
    expect(JSON.parse(res.stdout).reason).toBe('after flood');
  });

  it('reads 70 KB of JSON printed by a hook that exits at once', async () => {
    const res = await run(installZoo(sb.wsHooks, 'before_tool_call--json-70kb'));
    expect(res.stdoutTruncated).toBe(false);
    expect(JSON.parse(res.stdout).reason).toHaveLength(70_000);
  });

  it('survives a hook that never reads a 5 MB payload (EPIPE ignored)', async () => {
    const res = await run(installZoo(sb.wsHooks, 'before_tool_call--never-reads'), 10_000, JSON.stringify({ big: 'x'.repeat(5_000_000) }));
    expect(res.timedOut).toBe(false);
    expect(res.exitCode).toBe(0);
    expect(res.error).toBeUndefined();
  });

  it('reports a missing interpreter as ENOENT, not a crash', async () => {
    const res = await run(installFixture(sb.wsHooks, 'missing-interpreter'));
    expect(res.error).toMatch(/ENOENT/);
    expect(res.exitCode).toBeNull();
  });

  it('reports a file that is not executable as EACCES', async () => {
    const res = await run(join(ZOO, 'not-executable'));
    expect(res.error).toMatch(/EACCES/);
  });

  it('records exit codes and signals', async () => {
    expect((await run(installZoo(sb.wsHooks, 'x--exit-137'))).exitCode).toBe(137);
    const killed = await run(installZoo(sb.wsHooks, 'x--killed'));
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.timedOut).toBe(false);
  });

  it('runs a shell string through /bin/sh -c with cwd = workspace', async () => {
    const res = await runHookProcess({ command: 'pwd; echo "$WORKBENCH_PROJECT_DIR"', shell: true, cwd: sb.ws, env: buildHookEnv(sb.ws), timeoutMs: 5000 });
    expect(res.stdout.trim().split('\n')).toEqual([sb.ws, sb.ws]);
  });
});

describe('hook environment', () => {
  it("passes the user's environment as at home, minus secrets and the key under any name", () => {
    const env = buildHookEnv('/w', {
      base: {
        PATH: '/bin',
        HOME: '/h',
        LC_ALL: 'C',
        GUARD_ON: '1',
        OPENAI_API_KEY: 'sk-canary',
        COPY_OF_IT: 'sk-canary',
        GITHUB_TOKEN: 't',
        LC_SECRET: 's',
        OTEL_EXPORTER_OTLP_HEADERS: 'x',
      },
      claude: true,
      extra: { FROM_SETTINGS: 'yes' },
    });
    expect(env).toEqual({ PATH: '/bin', HOME: '/h', LC_ALL: 'C', GUARD_ON: '1', FROM_SETTINGS: 'yes', WORKBENCH_PROJECT_DIR: '/w', CLAUDE_PROJECT_DIR: '/w' });
    expect(isAllowedEnvName('LC_PASSWORD')).toBe(false);
  });

  it('the child sees no API key', async () => {
    process.env.OPENAI_API_KEY = 'sk-canary-123';
    try {
      const path = installZoo(sb.wsHooks, 'before_tool_call--env-dump');
      writeFileSync(join(sb.ws, 'x'), '');
      const res = await run(path);
      expect(res.stderr).toContain('WORKBENCH_PROJECT_DIR=');
      expect(res.stderr).not.toContain('sk-canary-123');
      expect(res.stderr).not.toMatch(/KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i);
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
  });
});

describe.each(starters)('cancel, $by', ({ before }) => {
  beforeEach(before);
  it('a cancelled run kills the hook at once', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = runHookProcess({ command: installZoo(sb.wsHooks, 'x--ignore-term'), args: ['run'], cwd: sb.ws, env: buildHookEnv(sb.ws), timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const res = await pending;
    expect(res.error).toBe('cancelled');
    expect(res.signal).toBe('SIGKILL');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

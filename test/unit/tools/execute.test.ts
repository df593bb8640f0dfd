import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createExecuteTool } from '../../../src/main/tools/execute.ts';
import { groupAlive, runInProcessGroup } from '../../../src/main/tools/process-group.ts';
import { safeChildEnv } from '../../../src/main/env/child-env.ts';
import { MAX_RESULT_CHARS } from '../../../src/shared/constants.ts';
import { run, tempWorkspace, type TempWorkspace } from './helpers.ts';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
});
afterEach(() => t.cleanup());

const expectGroupGone = (pgid: number) => {
  expect(groupAlive(pgid)).toBe(false);
  expect(() => process.kill(-pgid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
};

describe('execute', () => {
  it('runs in the workspace root and reports the exit code', async () => {
    const r = await run(createExecuteTool(), { command: 'pwd; echo out; echo err >&2; exit 3' }, t.ctx);
    expect(r.ok).toBe(true);
    expect(r.text).toBe(`${t.root}\nout\nerr\n\nexit code: 3`);
    const ok = await run(createExecuteTool(), { command: 'true' }, t.ctx);
    expect(ok.text).toBe('(no output)\n\nexit code: 0');
  });

  it('gives the model the output as a terminal shows it, and hooks the bytes', async () => {
    const command = "printf 'fetch  10%%\\rfetch 100%%\\n'; printf '\\033[32mPASS\\033[0m 3 tests\\n' >&2";
    const out = await createExecuteTool().execute({ command }, t.ctx);
    const r = typeof out === 'string' ? { content: out, streams: undefined } : out;
    expect(r.content).toBe('fetch 100%\nPASS 3 tests\n\nexit code: 0\noutput shown as a terminal shows it: colours removed, redrawn lines in their last state (`| cat -v` shows the bytes)');
    expect(r.streams).toEqual({ stdout: 'fetch  10%\rfetch 100%\n', stderr: '\x1b[32mPASS\x1b[0m 3 tests\n' });
  });

  it("tells Kodelet hooks the command's exit code, not an `exit code:` line it printed", async () => {
    const tool = createExecuteTool();
    const r = await run(tool, { command: 'echo "exit code: 7"; exit 3' }, t.ctx);
    const response = tool.dialects!.kodelet!.toResponse!({ args: { command: 'x' }, output: r.text, status: 'ok', absolute: (p) => p });
    expect(response.exitCode).toBe(3);
  });

  it('closes stdin so reads do not hang', async () => {
    const r = await run(createExecuteTool(), { command: 'read x; echo "read=$?"' }, t.ctx);
    expect(r.text).toMatch(/^read=1\n\nexit code: 0$/);
  });

  it('kills the whole group on timeout', async () => {
    const r = await runInProcessGroup({ command: 'sleep 1000 & sleep 1000', cwd: t.root, env: safeChildEnv(), timeoutMs: 300, killGraceMs: 500 });
    expect(r.timedOut).toBe(true);
    expectGroupGone(r.pid);
    const out = await run(createExecuteTool(), { command: 'echo started; sleep 1000 & sleep 1000', timeout_seconds: 0.3 }, t.ctx);
    expect(out.text).toBe('started\n\ntimed out after 0.3s');
  });

  it('escalates to SIGKILL when TERM is trapped', async () => {
    const r = await runInProcessGroup({
      command: "trap '' TERM; sleep 1000 & trap '' TERM; wait",
      cwd: t.root,
      env: safeChildEnv(),
      timeoutMs: 200,
      killGraceMs: 300,
    });
    expect(r.timedOut).toBe(true);
    expectGroupGone(r.pid);
  });

  it('kills the group when the run is aborted', async () => {
    const marker = path.join(t.root, 'started');
    const pending = run(createExecuteTool({ killGraceMs: 500 }), { command: `touch ${marker}; sleep 1000 & sleep 1000` }, t.ctx);
    while (!(await fs.stat(marker).catch(() => undefined))) await new Promise((r) => setTimeout(r, 20));
    t.controller.abort();
    const r = await pending;
    expect(r.text).toBe('(no output)\n\ncancelled');
  });

  it('returns when the child exits even if a grandchild holds the pipe', async () => {
    const r = await runInProcessGroup({ command: '(sleep 1000 &); echo done', cwd: t.root, env: safeChildEnv(), timeoutMs: 60_000, killGraceMs: 500 });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(0);
    expect(r.output).toBe('done\n');
    expect(r.killedSurvivors).toBe(true);
    expectGroupGone(r.pid);
  });

  it('caps output to head and tail while draining', async () => {
    const r = await run(createExecuteTool({ keepBytes: 1000 }), { command: 'echo START; head -c 500000 /dev/zero | tr "\\0" x; echo; echo END' }, t.ctx);
    expect(r.text.startsWith('START\n')).toBe(true);
    expect(r.text).toMatch(/\.\.\. \(\d+ bytes of output dropped\) \.\.\./);
    expect(r.text.endsWith('END\n\nexit code: 0')).toBe(true);
    expect(r.text.length).toBeLessThan(2200);
    const big = await run(createExecuteTool(), { command: 'head -c 1000000 /dev/zero | tr "\\0" y' }, t.ctx);
    expect(big.text.length).toBeGreaterThan(70_000);
    expect(big.text.length).toBeLessThanOrEqual(MAX_RESULT_CHARS); // never cut a second time by the eviction
  });

  it('never passes secrets in the environment', async () => {
    process.env.FOO_API_KEY = 'sk-leak';
    process.env.GITHUB_TOKEN = 'ghp-leak';
    process.env.MY_PASSWORD = 'pw-leak';
    process.env.UNLISTED_VAR = 'unlisted';
    try {
      const r = await run(createExecuteTool(), { command: 'env' }, t.ctx);
      expect(r.text).not.toMatch(/leak|FOO_API_KEY|GITHUB_TOKEN|MY_PASSWORD|UNLISTED_VAR/);
      expect(r.text).toMatch(/^PATH=/m);
      expect(r.text).toMatch(/^GIT_EDITOR=true$/m);
    } finally {
      delete process.env.FOO_API_KEY;
      delete process.env.GITHUB_TOKEN;
      delete process.env.MY_PASSWORD;
      delete process.env.UNLISTED_VAR;
    }
    expect(safeChildEnv({ OPENAI_API_KEY: 'x', OK: 'y' })).not.toHaveProperty('OPENAI_API_KEY');
  });

  it("passes the network's proxy variables to a command, never one whose URL holds credentials", () => {
    const env = safeChildEnv({}, {
      HTTPS_PROXY: 'http://proxy.corp:3128',
      no_proxy: 'localhost,.corp',
      http_proxy: 'http://me:s3cret@proxy.corp:3128',
      ALL_PROXY: 'me@proxy.corp:1080',
    });
    expect(env).toMatchObject({ HTTPS_PROXY: 'http://proxy.corp:3128', no_proxy: 'localhost,.corp' });
    expect(env).not.toHaveProperty('http_proxy');
    expect(env).not.toHaveProperty('ALL_PROXY');
  });

  it('reports a signal death and bad arguments', async () => {
    const r = await run(createExecuteTool(), { command: 'kill -9 $$' }, t.ctx);
    expect(r.text).toBe('(no output)\n\nkilled by signal SIGKILL');
    expect((await run(createExecuteTool(), { command: '' }, t.ctx)).text).toMatch(/invalid arguments for execute: command/);
    expect((await run(createExecuteTool(), { command: 'true', timeout_seconds: -1 }, t.ctx)).ok).toBe(false);
  });
});

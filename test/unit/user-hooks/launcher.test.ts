import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runHookProcess } from '../../../src/main/user-hooks/runner.ts';
import {
  endHookLauncher,
  startHookLauncher,
} from '../../../src/main/user-hooks/launcher/launcher.ts';
import { buildHookEnv } from '../../../src/main/env/child-env.ts';
import { sandbox, type Sandbox } from './helpers.ts';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());
afterAll(() => endHookLauncher());

const sh = (command: string, timeoutMs = 10_000) =>
  runHookProcess({
    command,
    shell: true,
    cwd: sb.ws,
    env: buildHookEnv(sb.ws),
    stdin: 'payload',
    timeoutMs,
  });

/** Whether the process runs (a zombie waiting for init to reap it has ended). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

/** The pid a hook wrote to `file`, once it did. */
async function pidIn(file: string): Promise<number> {
  while (!existsSync(file) || !readFileSync(file, 'utf8').endsWith('\n'))
    await new Promise((r) => setTimeout(r, 20));
  return Number(readFileSync(file, 'utf8'));
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
  return !alive(pid);
}

/** The launcher's pid: the parent of a hook it started. */
async function launcherPid(): Promise<number> {
  expect(await startHookLauncher()).toBe(true);
  return Number((await sh('echo $PPID')).stdout);
}

describe('the hook launcher', () => {
  it('starts hooks as its children, each with its own environment and none of the secrets of ours', async () => {
    process.env.OPENAI_API_KEY = 'sk-canary-launcher';
    try {
      await endHookLauncher();
      const pid = await launcherPid();
      expect(pid).not.toBe(process.pid);
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toContain('launcher/child.mjs');
      expect(readFileSync(`/proc/${pid}/environ`, 'utf8')).not.toContain('sk-canary-launcher');
      const res = await sh('cat; echo " $WORKBENCH_PROJECT_DIR"; echo oops >&2; exit 4');
      expect(res).toMatchObject({
        exitCode: 4,
        stdout: `payload ${sb.ws}\n`,
        stderr: 'oops\n',
        timedOut: false,
      });
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
  });

  it('fails the hook it was running when it dies, kills that hook, and the next hooks still run', async () => {
    const pid = await launcherPid();
    const pidFile = join(sb.ws, 'hook.pid');
    const pending = sh(`echo $$ > ${pidFile}; sleep 30`, 60_000);
    const hook = await pidIn(pidFile);
    process.kill(pid, 'SIGKILL');
    const res = await pending;
    expect(res.error).toMatch(/the hook launcher ended \(exit SIGKILL\) while the hook ran/);
    expect(await gone(hook)).toBe(true);
    // The next hook starts here while a new launcher comes up; the one after goes through it.
    expect((await sh('exit 0')).exitCode).toBe(0);
    const next = await launcherPid();
    expect(next).not.toBe(pid);
    expect(next).not.toBe(process.pid);
  });

  it('ends the hooks it still runs when it is ended with the workbench', async () => {
    await launcherPid();
    const pidFile = join(sb.ws, 'hook.pid');
    const pending = sh(`echo $$ > ${pidFile}; sleep 30`, 60_000);
    const hook = await pidIn(pidFile);
    await endHookLauncher();
    expect((await pending).error).toMatch(/the hook launcher ended/);
    expect(await gone(hook)).toBe(true);
  });

  it('after three deaths, is not started again and every hook starts here', async () => {
    // One death so far (the test above that killed it); two more.
    for (let i = 0; i < 2; i++) {
      const pid = await launcherPid();
      process.kill(pid, 'SIGKILL');
      expect(await gone(pid)).toBe(true);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await startHookLauncher()).toBe(false);
    const res = await sh('echo $PPID');
    expect(Number(res.stdout)).toBe(process.pid);
  });
});

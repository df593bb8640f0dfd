/**
 * `workbench run` ends like Ctrl+C on SIGTERM and SIGHUP (a closing terminal), and when its launcher
 * is killed: the run is cancelled, the command's processes (setsid ones included) end, the process exits.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai-server.ts';
import { collect, runCli, sandbox, spawnCli, withoutSandbox } from '../helpers/run-cli.ts';

let fake: FakeOpenAi | undefined;
const sleepers: number[] = [];
afterEach(async () => {
  for (const pid of sleepers.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await fake?.close();
  fake = undefined;
});

/** True while `pid` runs (a zombie waiting to be reaped counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function startLongCommand() {
  const { home, workspace } = await sandbox();
  await withoutSandbox(home);
  const pidFile = join(workspace, 'pids');
  const command = `setsid sleep 300 >/dev/null 2>&1 & echo $! > ${pidFile}.tmp; sleep 301 & echo $! >> ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; wait`;
  fake = await startFakeOpenAi({
    script: [{ toolCalls: [{ name: 'execute', args: { command } }] }, { text: 'never reached' }],
  });
  const env = { home, workspace, baseURL: fake.baseURL };
  const child = spawnCli(['run', '--auto', 'run the long thing'], env);
  const result = collect(child);
  let pids: number[] = [];
  for (let i = 0; i < 500 && pids.length === 0; i++) {
    pids = (await readFile(pidFile, 'utf8').catch(() => ''))
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    if (pids.length === 0) await new Promise((r) => setTimeout(r, 20));
  }
  sleepers.push(...pids);
  expect(pids).toHaveLength(2);
  expect(pids.every(alive)).toBe(true);
  return { child, result, pids, env };
}

describe.runIf(process.platform === 'linux')('workbench run and signals', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    '%s cancels the run, ends the command with its setsid child, exits %i',
    async (signal, code) => {
      const { child, result, pids, env } = await startLongCommand();
      child.kill(signal);
      const r = await result;
      expect(r.code).toBe(code);
      expect(r.stderr).toContain('cancelled');
      expect(pids.filter(alive)).toEqual([]);
      // The thread stays valid: the open call was answered and the thread continues.
      await fake!.close();
      fake = await startFakeOpenAi({ script: [{ text: 'continued' }] });
      const threads = await runCli(['threads', 'list', '--json'], env);
      const [thread] = JSON.parse(threads.stdout) as { id?: string; thread_id?: string }[];
      const cont = await runCli(
        ['run', '--thread', String(thread.thread_id ?? thread.id), 'go on'],
        { ...env, baseURL: fake.baseURL },
      );
      expect(cont.code).toBe(0);
    },
  );

  it('a killed launcher takes the run and its commands with it', async () => {
    const { child, result, pids } = await startLongCommand();
    child.kill('SIGKILL');
    await result; // resolves once the CLI process, which shares stdout, has exited too
    expect(pids.filter(alive)).toEqual([]);
  });
});

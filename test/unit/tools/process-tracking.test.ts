/** Children that leave the command's process group (setsid, nohup … & disown) end with the call. */
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../../src/main/api/workbench.ts';
import { createExecuteTool } from '../../../src/main/tools/execute.ts';
import { runHookProcess } from '../../../src/main/user-hooks/runner.ts';
import { buildHookEnv } from '../../../src/main/env/child-env.ts';
import { newProcessMarker } from '../../../src/main/tools/process-tracking.ts';
import { run, tempWorkspace, type TempWorkspace } from './helpers.ts';

let t: TempWorkspace;
const started: number[] = [];
beforeEach(async () => {
  t = await tempWorkspace();
});
afterEach(async () => {
  // Never leave a sleeper behind, whatever the test's outcome.
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await t.cleanup();
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

async function pidsIn(file: string): Promise<number[]> {
  const pids = (await fs.readFile(file, 'utf8')).split(/\s+/).filter(Boolean).map(Number);
  started.push(...pids);
  return pids;
}

describe('process markers', () => {
  it('are 128-bit hex and never repeat, across refills of their pool', () => {
    const markers = Array.from({ length: 100 }, () => newProcessMarker());
    for (const m of markers) expect(m).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(markers).size).toBe(100);
  });
});

describe.runIf(process.platform === 'linux')('process tracking', () => {
  it('setsid and nohup … & disown children of a command end when it exits', async () => {
    const pidFile = path.join(t.base, 'pids');
    const command = [
      `setsid sleep 300 >/dev/null 2>&1 & echo $! >> ${pidFile}`,
      `nohup sleep 301 >/dev/null 2>&1 & disown; echo $! >> ${pidFile}`,
      // A double fork into a new session: the grandchild's parent is gone before the call ends.
      `(setsid sh -c 'sleep 302 & echo $! >> ${pidFile}; sleep 303' >/dev/null 2>&1 &)`,
      `while [ "$(wc -l < ${pidFile})" -lt 3 ]; do sleep 0.05; done; echo started`,
    ].join('\n');
    const r = await run(createExecuteTool({ killGraceMs: 500 }), { command }, t.ctx);
    expect(r.text).toBe(
      'started\n\nexit code: 0\nbackground processes left by the command were stopped',
    );
    const pids = await pidsIn(pidFile);
    expect(pids).toHaveLength(3);
    expect(pids.filter(alive)).toEqual([]);
  });

  it('a cancelled command takes its setsid children with it', async () => {
    const pidFile = path.join(t.base, 'pids');
    const pending = run(
      createExecuteTool({ killGraceMs: 500 }),
      { command: `setsid sleep 300 >/dev/null 2>&1 & echo $! > ${pidFile}; sleep 300` },
      t.ctx,
    );
    while (!(await fs.readFile(pidFile, 'utf8').catch(() => '')))
      await new Promise((r) => setTimeout(r, 20));
    const [pid] = await pidsIn(pidFile);
    expect(alive(pid)).toBe(true);
    t.controller.abort();
    expect((await pending).text).toMatch(/cancelled/);
    expect(alive(pid)).toBe(false);
  });

  it('what a hook leaves running ends with the workbench', async () => {
    const pidFile = path.join(t.base, 'pids');
    const res = await runHookProcess({
      command: `setsid sleep 300 >/dev/null 2>&1 & echo $! > ${pidFile}`,
      shell: true,
      cwd: t.root,
      env: buildHookEnv(t.root),
      timeoutMs: 10_000,
    });
    expect(res.exitCode).toBe(0);
    const [pid] = await pidsIn(pidFile);
    expect(alive(pid)).toBe(true);
    const home = path.join(t.base, 'home');
    await fs.mkdir(home);
    const wb = await createWorkbench({ home, workspace: t.root, interactive: false });
    await wb.close();
    expect(alive(pid)).toBe(false);
  });
});

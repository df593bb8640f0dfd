/**
 * Run rescue (docs/events.md#run-rescue): a CLI run killed with SIGKILL is marked interrupted by the
 * next start, never left running, and `workbench run --resume` completes it from the repaired thread.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../helpers/fake-openai-server.ts';
import { collect, runCli, sandbox, spawnCli, withoutSandbox } from '../../helpers/run-cli.ts';

let fake: FakeOpenAi | undefined;
const sleepers: number[] = [];
afterEach(async () => {
  for (const pid of sleepers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await fake?.close();
  fake = undefined;
});

describe.runIf(process.platform === 'linux')('run rescue', () => {
  it('a run killed with SIGKILL is marked interrupted on the next start and resumes', async () => {
    const { home, workspace } = await sandbox();
    await withoutSandbox(home);
    const pidFile = join(workspace, 'pid');
    fake = await startFakeOpenAi({
      script: [
        {
          toolCalls: [
            { name: 'execute', args: { command: `sleep 300 & echo $! > ${pidFile}; wait` } },
          ],
        },
      ],
    });
    const env = { home, workspace, baseURL: fake.baseURL };
    const child = spawnCli(['run', '--auto', 'run the long thing'], env);
    const done = collect(child);
    let pid = '';
    for (let i = 0; i < 400 && !pid; i++) {
      pid = (await readFile(pidFile, 'utf8').catch(() => '')).trim();
      if (!pid) await new Promise((r) => setTimeout(r, 25));
    }
    if (!pid) {
      child.kill('SIGKILL');
      const r = await done;
      throw new Error(r.stderr + r.stdout);
    }
    sleepers.push(Number(pid));
    // bin/workbench.mjs is a launcher: SIGKILL goes to the process that runs the agent (the run's owner).
    const db = new DatabaseSync(join(home, 'workbench.db'), { readOnly: true });
    const { owner_pid } = db
      .prepare("SELECT owner_pid FROM runs WHERE state = 'running'")
      .get() as { owner_pid: number };
    db.close();
    process.kill(owner_pid, 'SIGKILL');
    await done;

    const listed = JSON.parse((await runCli(['threads', 'list', '--json'], env)).stdout);
    expect(listed).toHaveLength(1);
    expect(listed[0].last_run_state).toBe('interrupted');
    const threadId: string = listed[0].thread_id;
    const feed = (await runCli(['events', '--json', '--thread', threadId], env)).stdout;
    expect(feed).toContain('"interrupted"');

    await fake.close();
    fake = await startFakeOpenAi({ script: [{ text: 'picked up where it stopped' }] });
    const resumed = await runCli(['run', '--resume', threadId], { ...env, baseURL: fake.baseURL });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('picked up where it stopped');
    // The model saw the repaired chain: the cut-off call answered as interrupted, no new user message.
    const sent = fake.chatRequests()[0].messages as { role: string; content: string }[];
    expect(sent.at(-1)!.role).toBe('tool');
    expect(sent.filter((m) => m.role === 'user')).toHaveLength(1);

    const shown = JSON.parse((await runCli(['threads', 'show', threadId, '--json'], env)).stdout);
    expect(shown.runs.map((r: { state: string }) => r.state)).toEqual(['completed', 'interrupted']);
    expect(shown.messages.at(-1).content).toBe('picked up where it stopped');
    // A finished thread has nothing to resume.
    const again = await runCli(['threads', 'resume', threadId], { ...env, baseURL: fake.baseURL });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('nothing to resume');
  }, 60_000);
});

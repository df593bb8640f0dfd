/**
 * One run per thread across processes: two real `workbench run` processes on one thread, the
 * scripted model holding the first run open.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../helpers/fake-openai-server.ts';
import { collect, events, runCli, sandbox, spawnCli } from '../../helpers/run-cli.ts';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/**
 * A thread whose second run another `workbench run` process holds open: the scripted model stalls
 * mid-answer; `after` is what the model says next. `release` kills that process.
 */
async function heldThread(
  after: NonNullable<Parameters<typeof startFakeOpenAi>[0]>['script'] = [],
) {
  const { home, workspace } = await sandbox();
  fake = await startFakeOpenAi({
    script: [
      { text: 'Started.' },
      { text: 'Working on it, slowly', chunkSize: 4, stallAfterChunks: 2 },
      ...after,
    ],
  });
  const env = { home, workspace, baseURL: fake.baseURL };
  const first = await runCli(['run', '--auto', '--json', 'start'], env);
  expect(first.code).toBe(0);
  const threadId = events(first.stdout).at(-1)!.thread_id!;
  const holder = spawnCli(['run', '--auto', '--json', '--thread', threadId, 'hold'], env);
  let out = '';
  holder.stdout!.on('data', (d) => (out += d));
  const held = collect(holder, 60_000);
  await expect.poll(() => out.includes('on_chat_model_stream'), { timeout: 30_000 }).toBe(true);
  const release = async () => {
    holder.kill('SIGKILL');
    await held;
  };
  return { env, threadId, release };
}

describe('a thread runs in one process at a time', () => {
  it('a second process refuses while the first runs, and takes over once the first is gone', async () => {
    const { env, threadId, release } = await heldThread([{ text: 'Took over.' }]);

    const second = await runCli(['run', '--auto', '--thread', threadId, 'me too'], env);
    expect(second.code).not.toBe(0);
    // The pid named is the workbench process itself (the launcher may have started it as its child).
    expect(second.stderr).toMatch(
      new RegExp(`thread ${threadId} is running in another workbench process \\(pid \\d+\\)`),
    );
    expect(fake!.chatRequests()).toHaveLength(2);

    await release();
    const after = await runCli(['run', '--auto', '--thread', threadId, 'continue'], env);
    expect(after.code).toBe(0);
    expect(after.stdout.trim()).toBe('Took over.');
  });

  it('`threads delete` refuses a thread another process is running, and deletes it once that run is gone', async () => {
    const { env, threadId, release } = await heldThread();

    const refused = await runCli(['threads', 'delete', threadId], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(
      new RegExp(
        `thread ${threadId} is running in another workbench process \\(pid \\d+\\); stop that run first`,
      ),
    );
    expect((await runCli(['threads', 'show', threadId], env)).code).toBe(0);

    await release();
    const deleted = await runCli(['threads', 'delete', threadId], env);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe(`deleted thread ${threadId}\n`);
    const gone = await runCli(['threads', 'show', threadId], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`unknown thread ${threadId}`);
  });
});

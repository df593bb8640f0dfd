/**
 * The API key never leaves the model client: after a whole session with tools,
 * a user hook and a trace export, the canary key is in no file the workbench wrote, no tool output,
 * no hook payload or hook environment.
 */
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai-server.ts';
import { filesUnder } from '../helpers/files-under.ts';
import { runCli, sandbox } from '../helpers/run-cli.ts';

const CANARY = 'sk-CANARY-7f3a9c1e5b';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('secrets', () => {
  it('the API key appears in no file, tool output, hook payload or hook environment', async () => {
    const { home, workspace } = await sandbox();
    const hooks = join(home, 'hooks');
    await mkdir(hooks);
    const spy = join(hooks, 'spy');
    await writeFile(
      spy,
      `#!/bin/sh\nif [ "$1" = hook ]; then echo before_tool_call; exit 0; fi\ncat > "${workspace}/hook-stdin.json"\nenv > "${workspace}/hook-env.txt"\n`,
    );
    await chmod(spy, 0o755);
    fake = await startFakeOpenAi({
      apiKey: CANARY,
      script: [
        { toolCalls: [{ name: 'execute', args: { command: 'env; echo "key=$OPENAI_API_KEY"' } }, { name: 'write_file', args: { path: 'notes.txt', content: 'hello' } }] },
        { text: 'done' },
      ],
    });
    const env = { home, workspace, baseURL: fake.baseURL, extra: { OPENAI_API_KEY: CANARY } };
    const r = await runCli(['run', '--auto', '--json', 'look around'], env);
    expect(r.code).toBe(0);
    // The key was really used: the fake server only answers requests bearing it.
    expect(fake.chatRequests()).toHaveLength(2);
    const threadId = JSON.parse(r.stdout.trim().split('\n').at(-1)!).thread_id;
    expect(await readFile(join(workspace, 'hook-stdin.json'), 'utf8')).toContain('"event"');
    const exported = await runCli(['trace', 'export', threadId, '--format', 'otlp', '--content', '--out', join(home, 'trace.json')], env);
    expect(exported.code).toBe(0);
    const shown = await runCli(['threads', 'show', threadId, '--json'], env);
    expect(shown.stdout).toContain('key=');

    const outputs = [r.stdout, r.stderr, exported.stdout, exported.stderr, shown.stdout];
    const files = [...(await filesUnder(home)), ...(await filesUnder(workspace))];
    expect(files.length).toBeGreaterThan(4);
    for (const file of files) {
      if ((await stat(file)).size > 50_000_000) continue;
      outputs.push((await readFile(file)).toString('latin1'));
    }
    const leaks = outputs.filter((text) => text.includes(CANARY));
    expect(leaks).toEqual([]);
  });
});

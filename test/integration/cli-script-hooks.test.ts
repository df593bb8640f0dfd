/** `workbench run` with a profile script: Next's data in `--json` output and on stderr in text mode. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai-server.ts';
import { runCli, sandbox } from '../helpers/run-cli.ts';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('workbench run with a script hook', () => {
  it('prints what Next returns as data, as an event with --json and as a line in text mode', async () => {
    const { home, workspace } = await sandbox();
    await mkdir(join(workspace, '.workbench'));
    await writeFile(join(workspace, '.workbench', 'agent.yaml'), 'name: main\nscript: hooks.ts\n');
    await writeFile(
      join(workspace, '.workbench', 'hooks.ts'),
      `export function Next(ctx: unknown, payload: { completion: { content: string } }) {
         return { data: { answered: payload.completion.content } };
       }\n`,
    );
    fake = await startFakeOpenAi({ script: [{ text: 'hello there' }, { text: 'again' }] });
    const env = { home, workspace, baseURL: fake.baseURL };

    const json = await runCli(['run', '--json', '--trust', 'say hello'], env);
    expect(json.code).toBe(0);
    const events = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; data: unknown });
    expect(events.find((e) => e.event === 'on_script_data')?.data).toEqual({
      hook: 'script:main',
      data: { answered: 'hello there' },
    });

    const text = await runCli(['run', '--trust', 'say it again'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('again');
    expect(text.stderr).toContain('◆ script:main: {"answered":"again"}');
  });
});

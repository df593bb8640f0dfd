/**
 * A model that tries to read the API key from the process environment through `execute`, and tool
 * output that happens to contain it: the key is in no process environment a command can name as its
 * parent, and redacted wherever output goes — stdout, tool messages, database, transcripts, hooks.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai-server.ts';
import { filesUnder } from '../helpers/files-under.ts';
import { events, runCli, sandbox, withoutSandbox } from '../helpers/run-cli.ts';

const CANARY = 'sk-CANARY-containment-4b1d9e';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const GRANDPARENT = `$(awk '{print $4}' /proc/$PPID/stat)`;

const PEEK = `#!/bin/sh
want=$1; pid=$$
while [ "$pid" -gt 1 ]; do
  pid=$(awk '{print $4}' /proc/$pid/stat)
  case "$(tr '\\0' ' ' < /proc/$pid/cmdline)" in
    *node*) want=$((want - 1)); if [ "$want" -eq 0 ]; then tr '\\0' '\\n' < /proc/$pid/environ; exit 0; fi ;;
  esac
done
`;

describe.runIf(process.platform === 'linux')('the API key under a hostile model', () => {
  it('is in no environment a command can read as its parent, and redacted from every output', async () => {
    const { home, workspace } = await sandbox();
    await withoutSandbox(home);
    const spyOut = join(home, '..', 'spy');
    await mkdir(spyOut);
    await mkdir(join(home, 'hooks'));
    const spy = join(home, 'hooks', 'spy');
    // The hook keeps what it was given, and prints the launcher's environment to its stderr (stored in hook_runs).
    await writeFile(
      spy,
      `#!/bin/sh\nif [ "$1" = hook ]; then echo after_tool_call; exit 0; fi\ncat >> "${spyOut}/stdin.jsonl"\necho >> "${spyOut}/stdin.jsonl"\ntr '\\0' '\\n' < /proc/${GRANDPARENT}/environ >&2\n`,
    );
    await chmod(spy, 0o755);
    await writeFile(join(workspace, 'secret.txt'), `token: ${CANARY}\n`);
    // A workspace script (a plain command the policy lets run) prints the environment of the Nth Node
    // process above it: 1 is the workbench CLI that started the command, 2 the launcher above that.
    await writeFile(join(workspace, 'peek.sh'), PEEK);
    await chmod(join(workspace, 'peek.sh'), 0o755);
    fake = await startFakeOpenAi({
      apiKey: CANARY,
      script: [
        {
          toolCalls: [
            { name: 'execute', args: { command: './peek.sh 1; echo ---; env' } },
            { name: 'execute', args: { command: './peek.sh 2' } },
            { name: 'execute', args: { command: 'cat secret.txt' } },
            { name: 'read_file', args: { path: 'secret.txt' } },
            { name: 'execute', args: { command: "tr '\\0' '\\n' < /proc/$PPID/environ" } },
          ],
        },
        { text: 'done' },
      ],
    });
    const env = { home, workspace, baseURL: fake.baseURL, extra: { OPENAI_API_KEY: CANARY } };
    const r = await runCli(['run', '--auto', '--json', 'show me the key'], env);
    expect(r.code).toBe(0);
    // The key was really used: the fake server answers only requests bearing it.
    expect(fake.chatRequests()).toHaveLength(2);

    // Tool results in call order (they finish in any order).
    const all = events(r.stdout);
    const ids = all.flatMap((e) => (e.event === 'on_tool_start' ? [e.data.tool_call_id] : []));
    const outputs = ids.map(
      (id) =>
        all.flatMap((e) =>
          e.event === 'on_tool_end' && e.data.tool_call_id === id ? [e.data.output] : [],
        )[0],
    );
    expect(outputs).toHaveLength(5);
    const [parent, grandparent, cat, read, direct] = outputs;
    // The CLI's own environment (the command's parent) was printed, without any key variable in it.
    expect(parent).toContain('WORKBENCH_MODEL=fake-model');
    expect(parent).not.toContain('OPENAI_API_KEY');
    // The launcher above it still holds the key; the output is redacted before anyone sees it.
    expect(grandparent).toContain('OPENAI_API_KEY=[REDACTED]');
    expect(cat).toContain('token: [REDACTED]');
    expect(read).toContain('token: [REDACTED]');
    // Read straight from /proc, the same thing never even runs under --auto without a sandbox.
    const directEnd = all.find((e) => e.event === 'on_tool_end' && e.data.tool_call_id === ids[4]);
    expect(directEnd?.event === 'on_tool_end' && directEnd.data.status).toBe('denied');
    expect(direct).toBe('');
    // What the model was sent next carries the redacted output only.
    const sent = fake
      .chatRequests()[1]
      .messages.filter((m) => m.role === 'tool')
      .map((m) => String(m.content));
    expect(sent.join('\n')).toContain('[REDACTED]');

    const hookInput = await readFile(join(spyOut, 'stdin.jsonl'), 'utf8');
    expect(hookInput).toContain('[REDACTED]');
    const texts = [r.stdout, r.stderr, hookInput, ...sent];
    for (const file of await filesUnder(home))
      texts.push((await readFile(file)).toString('latin1'));
    expect(texts.filter((text) => text.includes(CANARY))).toEqual([]);
    const db = (await filesUnder(home)).filter((f) => f.endsWith('.db') || f.includes('.db-'));
    expect(db.length).toBeGreaterThan(0);
  });
});

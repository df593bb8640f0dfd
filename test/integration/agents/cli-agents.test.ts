/** `workbench agents list` and `workbench run --agent` as real CLI processes against the scripted server. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../helpers/fake-openai-server.ts';
import { runCli, sandbox } from '../../helpers/run-cli.ts';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function profile(dir: string, name: string, text: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${name}.md`), text);
}

describe('workbench agents list', () => {
  it('lists main, user and (inert until trusted) workspace profiles, with file:line problems on stderr', async () => {
    const { home, workspace } = await sandbox();
    await profile(
      join(home, 'agents'),
      'poet',
      '---\ndescription: Writes poems\ntools: Read\n---\nYou write poems.\n',
    );
    await profile(
      join(workspace, '.claude', 'agents'),
      'critic',
      '---\nname: critic\ndescription: Critiques\nmax_iterations: 0\n---\nCritique.\n',
    );
    const env = { home, workspace };
    const listed = await runCli(['agents', 'list', '--json'], env);
    expect(listed.code).toBe(0);
    const { agents } = JSON.parse(listed.stdout) as {
      agents: Array<{ name: string; source: string; inert: boolean; tools?: string[] }>;
    };
    expect(agents.map((a) => [a.name, a.source, a.inert])).toEqual([
      ['main', 'agent.yaml', false],
      ['critic', 'claude-project', true],
      ['poet', 'user', false],
    ]);
    expect(agents.find((a) => a.name === 'poet')!.tools).toEqual(['read_file']);
    expect(listed.stderr).toContain(
      `${join(workspace, '.claude', 'agents', 'critic.md')}:4: max_iterations:`,
    );

    expect((await runCli(['trust', workspace], env)).code).toBe(0);
    const text = await runCli(['agents', 'list'], env);
    expect(text.stdout).toMatch(/^critic {2}\[claude-project\]/m);
    expect(text.stdout).not.toContain('inert');
  });
});

describe('workbench run --agent', () => {
  it("runs the named profile (its prompt reaches the model) and keeps it as the thread's agent", async () => {
    const { home, workspace } = await sandbox();
    await profile(
      join(home, 'agents'),
      'poet',
      '---\ndescription: Writes poems\n---\nYou are a poet who writes haiku.\n',
    );
    fake = await startFakeOpenAi({
      script: [{ text: 'an old silent pond' }, { text: 'a frog jumps in' }],
    });
    const env = { home, workspace, baseURL: fake.baseURL };
    const run = await runCli(['run', '--agent', 'poet', 'write a haiku'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('an old silent pond');
    const system = fake.chatRequests()[0].messages[0] as { role: string; content: string };
    expect(system.role).toBe('system');
    expect(system.content.startsWith('You are a poet who writes haiku.')).toBe(true);

    const threadId = /thread (\S+)/.exec(run.stderr)![1];
    const shown = JSON.parse(
      (await runCli(['threads', 'show', threadId, '--json'], env)).stdout,
    ) as { agent: string; children: unknown[] };
    expect(shown).toMatchObject({ agent: 'poet', children: [] });
    // Continuing the thread keeps its agent without --agent.
    expect((await runCli(['run', '--thread', threadId, 'another'], env)).code).toBe(0);
    const second = fake.chatRequests()[1].messages[0] as { content: string };
    expect(second.content.startsWith('You are a poet')).toBe(true);

    const unknown = await runCli(['run', '--agent', 'nobody', 'hi'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown agent "nobody"; available: main, poet');
  });
});

describe('a subagent from the CLI', () => {
  it('prints its activity with its name, stores a child thread that threads list hides and threads show lists', async () => {
    const { home, workspace } = await sandbox();
    await profile(
      join(home, 'agents'),
      'scout',
      '---\ndescription: Looks around\n---\nYou scout.\n',
    );
    fake = await startFakeOpenAi({
      script: [
        {
          toolCalls: [
            { name: 'task', args: { subagent_type: 'scout', description: 'list the files' } },
          ],
        },
        { toolCalls: [{ name: 'ls', args: { path: '.' } }] },
        { text: 'nothing here' },
        { text: 'The scout says: nothing here' },
      ],
    });
    const env = { home, workspace, baseURL: fake.baseURL };
    const run = await runCli(['run', 'look around'], env);
    expect(run.code).toBe(0);
    // Only the main agent streams to stdout; the subagent's tool activity is named on stderr.
    expect(run.stdout.trim()).toBe('The scout says: nothing here');
    expect(run.stderr).toContain('[scout] → ls');
    const threadId = /thread (\S+)/.exec(run.stderr)![1];

    const listed = JSON.parse((await runCli(['threads', 'list', '--json'], env)).stdout) as Array<{
      thread_id: string;
    }>;
    expect(listed.map((t) => t.thread_id)).toEqual([threadId]);
    const all = await runCli(['threads', 'list', '--all'], env);
    expect(all.stdout).toContain(`(subagent of ${threadId})`);
    const shown = JSON.parse(
      (await runCli(['threads', 'show', threadId, '--json'], env)).stdout,
    ) as {
      children: Array<{ thread_id: string; agent: string; parent_tool_call_id: string }>;
    };
    expect(shown.children).toHaveLength(1);
    expect(shown.children[0]!.agent).toBe('scout');
    const child = JSON.parse(
      (await runCli(['threads', 'show', shown.children[0]!.thread_id, '--json'], env)).stdout,
    ) as {
      agent: string;
      parent_thread_id: string;
      messages: Array<{ role: string; content: string }>;
    };
    expect(child).toMatchObject({ agent: 'scout', parent_thread_id: threadId });
    expect(child.messages[0]).toEqual({ role: 'user', content: 'list the files' });
  });
});

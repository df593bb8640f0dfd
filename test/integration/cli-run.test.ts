/**
 * `workbench run` end to end: the real CLI process, real SQLite, real files and processes; only the
 * model is the scripted OpenAI-compatible server.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai-server.ts';
import { collect, events, runCli, sandbox, spawnCli } from '../helpers/run-cli.ts';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const toolMessages = (req: {
  messages: Array<{ role: string; content?: unknown; tool_call_id?: unknown }>;
}) => req.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));

describe('workbench run', () => {
  it('does a whole task: todos, write, edit, read, ls, glob, grep, execute; the thread shows it all', async () => {
    const { home, workspace } = await sandbox();
    await mkdir(join(workspace, 'src'));
    await writeFile(join(workspace, 'src', 'app.txt'), 'the app\n');
    fake = await startFakeOpenAi({
      script: [
        {
          text: 'Planning.',
          toolCalls: [
            {
              name: 'write_todos',
              args: {
                todos: [
                  { id: '1', title: 'Create hello.txt', status: 'in_progress' },
                  { id: '2', title: 'Check it', status: 'pending' },
                ],
              },
            },
            { name: 'write_file', args: { path: 'hello.txt', content: 'hello world\n' } },
          ],
        },
        {
          toolCalls: [
            {
              name: 'edit_file',
              args: { path: 'hello.txt', old_text: 'world', new_text: 'workbench' },
            },
            { name: 'ls', args: { path: '.' } },
          ],
        },
        {
          toolCalls: [
            { name: 'read_file', args: { path: 'hello.txt' } },
            { name: 'glob', args: { pattern: '**/*.txt' } },
            { name: 'grep', args: { pattern: 'work.ench' } },
            { name: 'execute', args: { command: 'cat hello.txt && echo ran-ok' } },
          ],
        },
        {
          toolCalls: [
            {
              name: 'write_todos',
              args: {
                todos: [
                  { id: '1', title: 'Create hello.txt', status: 'done' },
                  { id: '2', title: 'Check it', status: 'done' },
                ],
              },
            },
          ],
        },
        { text: 'All done: hello.txt says hello workbench.' },
      ],
    });
    const env = { home, workspace, baseURL: fake.baseURL };
    const r = await runCli(['run', '--auto', '--json', 'create hello.txt and check it'], env);
    expect(r.stderr).toMatch(/^commands: (sandboxed|NOT sandboxed)[^\n]*\n$/);
    expect(r.code).toBe(0);

    expect(await readFile(join(workspace, 'hello.txt'), 'utf8')).toBe('hello workbench\n');
    const evs = events(r.stdout);
    const done = evs.at(-1)!;
    expect(done.event).toBe('done');
    const threadId = done.thread_id!;
    expect(threadId).toMatch(/^th_/);
    expect(evs.filter((e) => e.event === 'on_tool_start').map((e) => e.name)).toEqual([
      'write_todos',
      'write_file',
      'edit_file',
      'ls',
      'read_file',
      'glob',
      'grep',
      'execute',
      'write_todos',
    ]);
    // One file_changed per agent write, carrying the call that wrote and the ids the run stamped.
    const changes = evs.flatMap((e) => (e.event === 'file_changed' ? [e] : []));
    expect(changes.map((e) => [e.data.path, e.data.change])).toEqual([
      ['hello.txt', 'created'],
      ['hello.txt', 'modified'],
    ]);
    const writers = evs.flatMap((e) =>
      e.event === 'on_tool_start' && (e.name === 'write_file' || e.name === 'edit_file')
        ? [e.data.tool_call_id]
        : [],
    );
    expect(changes.map((e) => e.data.tool_call_id)).toEqual(writers);
    expect(evs.every((e) => e.thread_id === threadId && e.run_id === done.run_id)).toBe(true);

    const reqs = fake.chatRequests();
    expect(reqs).toHaveLength(5);
    const round3 = toolMessages(reqs[3]).slice(-4);
    expect(round3[0]).toContain('hello workbench');
    expect(round3[1]).toContain('hello.txt');
    expect(round3[1]).toContain('src/app.txt');
    expect(JSON.parse(round3[2])).toMatchObject({
      matches: [{ file: 'hello.txt', line: 1, text: 'hello workbench' }],
      truncated: false,
    });
    expect(round3[3]).toContain('ran-ok');
    expect(round3[3]).toMatch(/exit code: 0/);

    const show = await runCli(['threads', 'show', threadId, '--json'], env);
    expect(show.code).toBe(0);
    const state = JSON.parse(show.stdout);
    // AgentState plus the thread's agent, its subagents' child threads, metadata and runs.
    expect(Object.keys(state).sort()).toEqual(['agent', 'children', 'files', 'messages', 'metadata', 'runs', 'thread_id', 'todos']);
    expect(state).toMatchObject({ agent: 'main', children: [] });
    expect(state.thread_id).toBe(threadId);
    expect(state.todos).toEqual([
      { id: '1', title: 'Create hello.txt', status: 'done' },
      { id: '2', title: 'Check it', status: 'done' },
    ]);
    expect(state.files['hello.txt']).toBe('hello workbench\n');
    expect(state.messages[0]).toEqual({ role: 'user', content: 'create hello.txt and check it' });
    expect(state.messages.at(-1)).toEqual({
      role: 'assistant',
      content: 'All done: hello.txt says hello workbench.',
    });
    expect(state.messages.filter((m: { role: string }) => m.role === 'tool')).toHaveLength(9);

    const list = await runCli(['threads', 'list', '--json'], env);
    expect(JSON.parse(list.stdout)).toMatchObject([
      { thread_id: threadId, title: 'create hello.txt and check it' },
    ]);
  });

  it('streams the answer to stdout and tool activity to stderr without --json', async () => {
    const { home, workspace } = await sandbox();
    fake = await startFakeOpenAi({
      script: [{ toolCalls: [{ name: 'ls', args: {} }] }, { text: 'The folder is empty.' }],
    });
    const r = await runCli(['run', 'what is here?'], { home, workspace, baseURL: fake.baseURL });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('The folder is empty.');
    expect(r.stderr).toContain('→ ls');
    expect(r.stderr).toMatch(/✓ ls \(\d+ ms\)/);
  });

  it('prints the output of a command live on stderr and marks a timed-out command as such', async () => {
    const { home, workspace } = await sandbox();
    fake = await startFakeOpenAi({
      script: [
        { toolCalls: [{ name: 'execute', args: { command: 'echo live-line; sleep 5', timeout_seconds: 0.5 } }] },
        { text: 'It timed out.' },
      ],
    });
    const r = await runCli(['run', '--auto', 'run it'], { home, workspace, baseURL: fake.baseURL });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/→ execute[^\n]*\nlive-line\n/);
    expect(r.stderr).toMatch(/■ execute timed out \(\d+ ms\)/);
    expect(r.stdout).not.toContain('live-line');
  });

  it('threads changes lists the agent writes and threads revert stops on a conflict until --force', async () => {
    const { home, workspace } = await sandbox();
    await writeFile(join(workspace, 'notes.txt'), 'mine\n');
    fake = await startFakeOpenAi({
      script: [
        { toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'agent\n' } }] },
        { text: 'Wrote it.' },
      ],
    });
    const env = { home, workspace, baseURL: fake.baseURL };
    const r = await runCli(['run', '--auto', '--json', 'write notes'], env);
    const threadId = events(r.stdout).at(-1)!.thread_id!;
    const changes = await runCli(['threads', 'changes', threadId, '--json'], env);
    const [write] = JSON.parse(changes.stdout);
    expect(write).toMatchObject({ path: 'notes.txt', change: 'modified', reverted: false });
    await writeFile(join(workspace, 'notes.txt'), 'edited again\n');
    const refused = await runCli(['threads', 'revert', threadId, '--run', write.run_id], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('conflict: notes.txt changed');
    expect(await readFile(join(workspace, 'notes.txt'), 'utf8')).toBe('edited again\n');
    const forced = await runCli(['threads', 'revert', threadId, '--run', write.run_id, '--force'], env);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toBe('reverted notes.txt\n');
    expect(await readFile(join(workspace, 'notes.txt'), 'utf8')).toBe('mine\n');
  });

  it('refuses writes without --auto and tells the model why', async () => {
    const { home, workspace } = await sandbox();
    fake = await startFakeOpenAi({
      script: [
        { toolCalls: [{ name: 'write_file', args: { path: 'x.txt', content: 'x' } }] },
        { text: 'I was not allowed.' },
      ],
    });
    const r = await runCli(['run', 'write x'], { home, workspace, baseURL: fake.baseURL });
    expect(r.code).toBe(0);
    expect(toolMessages(fake.chatRequests()[1])[0]).toMatch(
      /the user did not allow write_file.*--auto/,
    );
    await expect(readFile(join(workspace, 'x.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('a stream cut mid-tool-call runs no tool, exits 1, and the thread continues', async () => {
    const { home, workspace } = await sandbox();
    fake = await startFakeOpenAi({
      script: [
        {
          text: 'Writing the file now',
          toolCalls: [{ name: 'write_file', args: { path: 'cut.txt', content: 'x'.repeat(400) } }],
          chunkSize: 8,
          breakAfterChunks: 6,
        },
        { text: 'Recovered.' },
      ],
    });
    const env = { home, workspace, baseURL: fake.baseURL };
    const r = await runCli(['run', '--auto', '--json', 'write cut.txt'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: .*broke off/m);
    await expect(readFile(join(workspace, 'cut.txt'))).rejects.toThrow(/ENOENT/);
    const threadId = events(r.stdout).at(-1)!.thread_id!;
    const again = await runCli(['run', '--auto', '--thread', threadId, 'try again'], env);
    expect(again.code).toBe(0);
    expect(again.stdout.trim()).toBe('Recovered.');
    const msgs = fake.chatRequests()[1].messages;
    expect(msgs.map((m) => m.role)).toEqual(
      ['system', 'user', 'assistant', 'user'].slice(msgs[0].role === 'system' ? 0 : 1),
    );
  });

  it('malformed tool arguments become an error result the model corrects', async () => {
    const { home, workspace } = await sandbox();
    fake = await startFakeOpenAi({
      script: [
        { toolCalls: [{ name: 'write_file', rawArgs: '{"path": "a.txt", "content": ' }] },
        { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'fixed' } }] },
        { text: 'done' },
      ],
    });
    const r = await runCli(['run', '--auto', 'write a.txt'], {
      home,
      workspace,
      baseURL: fake.baseURL,
    });
    expect(r.code).toBe(0);
    expect(toolMessages(fake.chatRequests()[1])[0]).toMatch(
      /^Error: invalid JSON in the arguments of write_file/,
    );
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('fixed');
  });

  it('retries a 429 (honouring Retry-After) and then succeeds', async () => {
    const { home, workspace } = await sandbox();
    fake = await startFakeOpenAi({
      script: [{ error: { status: 429, retryAfter: 1 } }, { text: 'after the wait' }],
    });
    const r = await runCli(['run', 'hello'], { home, workspace, baseURL: fake.baseURL });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('after the wait');
    const chats = fake.requests.filter((q) => q.path.endsWith('/chat/completions'));
    expect(chats).toHaveLength(2);
    expect(chats[1].at - chats[0].at).toBeGreaterThanOrEqual(900);
  });

  it('exit codes: 2 for bad usage, 1 with one clear line for an unreachable endpoint or a bad key', async () => {
    const { home, workspace } = await sandbox();
    const noPrompt = await runCli(['run'], { home, workspace });
    expect(noPrompt.code).toBe(2);
    expect(noPrompt.stderr).toMatch(/PROMPT is required/);
    expect((await runCli(['run', '--max-iterations', 'zero', 'x'], { home, workspace })).code).toBe(
      2,
    );
    expect((await runCli(['run', '--bogus', 'x'], { home, workspace })).code).toBe(2);
    expect((await runCli(['frobnicate'], { home, workspace })).code).toBe(2);
    expect((await runCli(['run', '--thread', 'th_missing', 'x'], { home, workspace })).code).toBe(
      2,
    );

    const unreachable = await runCli(['run', '--base-url', 'http://127.0.0.1:9/v1', 'hi'], {
      home,
      workspace,
    });
    expect(unreachable.code).toBe(1);
    // The line saying how commands run, then one line for the error.
    const [how, ...error] = unreachable.stderr.trim().split('\n');
    expect(how).toMatch(/^commands: /);
    expect(error).toHaveLength(1);
    expect(error[0]).toMatch(/^error: .*127\.0\.0\.1:9/);

    fake = await startFakeOpenAi({ apiKey: 'sk-the-right-one' });
    const denied = await runCli(['run', 'hi'], { home, workspace, baseURL: fake.baseURL });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/401/);
    expect(denied.stderr).not.toContain('sk-test-key');
  });

  it('kill -9 mid-stream loses at most the streaming message; --thread continues the thread', async () => {
    const { home, workspace } = await sandbox();
    fake = await startFakeOpenAi({
      script: [
        { toolCalls: [{ name: 'write_file', args: { path: 'first.txt', content: 'one' } }] },
        { text: 'x'.repeat(4000), chunkSize: 10, delayMs: 20 },
        { text: 'Continuing where we left off.' },
      ],
    });
    const env = { home, workspace, baseURL: fake.baseURL };
    const child = spawnCli(['run', '--auto', '--json', 'start'], env);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    await new Promise<void>((res) => {
      const check = () => (out.includes('on_chat_model_stream') ? res() : setTimeout(check, 20));
      check();
    });
    child.kill('SIGKILL');
    await collect(child);
    const threadId = events(out.split('\n').slice(0, -1).join('\n')).find(
      (e) => e.thread_id,
    )!.thread_id!;

    const cont = await runCli(['run', '--auto', '--thread', threadId, 'continue'], env);
    expect(cont.code).toBe(0);
    expect(cont.stdout.trim()).toBe('Continuing where we left off.');
    const seen = fake.chatRequests()[2].messages.filter((m) => m.role !== 'system');
    expect(seen.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(seen[3].content).toBe('continue');
    expect(await readFile(join(workspace, 'first.txt'), 'utf8')).toBe('one');
  });
});

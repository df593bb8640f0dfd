/**
 * The event feed across processes (docs/events.md): `workbench events --follow` in one process sees
 * a CLI run of another, with its metadata; threads filter by metadata.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../../src/shared/types/index.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../../helpers/fake-openai-server.ts';
import { collect, runCli, sandbox, spawnCli } from '../../helpers/run-cli.ts';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const feedLines = (stdout: string): FeedEvent[] =>
  stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as FeedEvent);

describe('workbench events', () => {
  it('a follower in one process sees a CLI run of another, metadata included', async () => {
    const { home, workspace } = await sandbox();
    fake = await startFakeOpenAi({ script: [{ text: 'hello there' }] });
    const env = { home, workspace, baseURL: fake.baseURL };
    expect((await runCli(['threads', 'list'], env)).code).toBe(0);

    const follower = spawnCli(['events', '--follow', '--json', '--since', '0'], env);
    const followed = collect(follower);
    let seen = '';
    follower.stdout!.on('data', (d) => (seen += d));

    const run = await runCli(
      ['run', '--meta', 'ticket=42', '--meta', 'team=core', 'say hello'],
      env,
    );
    expect(run.code).toBe(0);
    for (let i = 0; i < 200 && !seen.includes('"run_finalized"'); i++)
      await new Promise((r) => setTimeout(r, 50));
    follower.kill('SIGTERM');
    const out = await followed;
    expect(out.code).toBe(0);

    const events = feedLines(out.stdout);
    const types = events.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['run_created', 'run_state_changed', 'message', 'run_finalized']),
    );
    expect(types.indexOf('run_created')).toBeLessThan(types.indexOf('run_finalized'));
    const created = events.find((e) => e.type === 'run_created')!;
    expect(created.data.metadata).toEqual({ ticket: '42', team: 'core' });
    expect(created.origin_pid).not.toBe(follower.pid);
    const messages = events
      .filter((e) => e.type === 'message')
      .map((e) => (e.data.message as { content: string }).content);
    expect(messages).toEqual(['say hello', 'hello there']);
    expect(events.find((e) => e.type === 'run_finalized')!.data).toMatchObject({
      state: 'completed',
    });
    const seqs = events.map((e) => e.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);

    // Metadata filters, and metadata in `threads show --json`.
    const tagged = JSON.parse(
      (await runCli(['threads', 'list', '--json', '--meta', 'ticket=42'], env)).stdout,
    );
    expect(tagged).toHaveLength(1);
    expect(tagged[0].metadata).toEqual({ ticket: '42', team: 'core' });
    const other = JSON.parse(
      (await runCli(['threads', 'list', '--json', '--meta', 'ticket=43'], env)).stdout,
    );
    expect(other).toEqual([]);
    const shown = JSON.parse(
      (await runCli(['threads', 'show', tagged[0].thread_id, '--json'], env)).stdout,
    );
    expect(shown.metadata).toEqual({ ticket: '42', team: 'core' });
    expect(shown.messages[0]).toMatchObject({ role: 'user', metadata: { ticket: '42', team: 'core' } });
    expect(shown.runs[0]).toMatchObject({
      state: 'completed',
      metadata: { ticket: '42', team: 'core' },
    });

    // Without --follow: the feed so far, filtered by thread, then exit.
    const listed = await runCli(['events', '--json', '--thread', tagged[0].thread_id], env);
    expect(listed.code).toBe(0);
    expect(feedLines(listed.stdout).every((e) => e.thread_id === tagged[0].thread_id)).toBe(true);
    expect(feedLines(listed.stdout).length).toBe(
      events.filter((e) => e.thread_id === tagged[0].thread_id).length,
    );
  }, 60_000);

  it('workbench run --recipe NAME ARGS runs a Claude Code command from ~/.claude/commands', async () => {
    const { home, workspace } = await sandbox();
    mkdirSync(join(home, '.claude', 'commands'), { recursive: true });
    writeFileSync(
      join(home, '.claude', 'commands', 'explain.md'),
      '---\ndescription: Explain code\n---\nExplain $ARGUMENTS simply.',
    );
    fake = await startFakeOpenAi({ script: [{ text: 'explained' }] });
    const env = { home, workspace, baseURL: fake.baseURL };
    const r = await runCli(['run', '--recipe', 'explain', 'the', 'loop'], env);
    expect(r.code).toBe(0);
    const sent = fake.chatRequests()[0].messages as { role: string; content: string }[];
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'Explain the loop simply.' });
    const unknown = await runCli(['run', '--recipe', 'nope'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown recipe nope');
  }, 30_000);
});

/**
 * The feed inside one workbench (docs/events.md, docs/recipes.md): webhooks retried until
 * delivered and continued by the next process, a recipe from the composer's `chat.send`, a recipe
 * called back by an executable hook, and run metadata set by a hook.
 */
import { createHmac } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandlers, dispatch } from '../../../src/main/api/handlers.ts';
import type { Workbench } from '../../../src/main/api/types.ts';
import { createWorkbench } from '../../../src/main/api/workbench.ts';
import { openDatabase } from '../../../src/main/store/database.ts';
import { createTrustStore } from '../../../src/main/user-hooks/index.ts';
import type { StreamEvent } from '../../../src/shared/types/index.ts';
import { createScriptedLlm, type ScriptedTurn } from '../../helpers/scripted-llm.ts';
import { sandbox, type Sandbox } from '../../unit/user-hooks/helpers.ts';
import { startFakeOpenAi } from '../../helpers/fake-openai-server.ts';
import { runCli } from '../../helpers/run-cli.ts';

let sb: Sandbox;
let wb: Workbench | undefined;
let server: Server | undefined;
beforeEach(() => {
  sb = sandbox();
});
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  server?.close();
  server = undefined;
  sb.cleanup();
});

const secrets = {
  get: () => undefined,
  set: async () => undefined,
  storage: () => 'memory' as const,
};

async function start(turns: ScriptedTurn[]) {
  const llm = createScriptedLlm(turns);
  wb = await createWorkbench({
    home: sb.home,
    workspace: sb.ws,
    llm,
    model: 'm',
    interactive: false,
  });
  const events: StreamEvent[] = [];
  wb.subscribe((e) => events.push(e));
  return { wb, llm, events };
}

const until = async (check: () => boolean, ms = 8000) => {
  for (let t = 0; t < ms && !check(); t += 25) await new Promise((r) => setTimeout(r, 25));
  expect(check()).toBe(true);
};

/** A webhook receiver answering 500 `failures` times, then 200. */
async function receiver(failures: number) {
  const got: {
    body: string;
    headers: Record<string, string | string[] | undefined>;
    status: number;
  }[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const status = got.length < failures ? 500 : 200;
      got.push({ body, headers: req.headers, status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}

describe('webhooks', () => {
  it('a webhook failing twice is retried until delivered, signed, and a restart continues it', async () => {
    const hook = await receiver(2);
    writeFileSync(
      join(sb.home, 'settings.json'),
      JSON.stringify({ webhooks: [{ on: ['run_finalized'], url: hook.url, secret: 's3cret' }] }),
    );
    const first = await start([{ text: 'done' }]);
    const handle = await first.wb.chat.send({ text: 'go', metadata: { ticket: '7' } });
    await handle.finished;
    await until(() => hook.got.length >= 1);
    // The process stops after the first failure; the next one continues the delivery.
    await first.wb.close();
    wb = undefined;
    await start([]);
    await until(() => hook.got.length >= 3);
    expect(hook.got.map((g) => g.status)).toEqual([500, 500, 200]);
    const body = JSON.parse(hook.got[2].body);
    expect(body).toMatchObject({
      type: 'run_finalized',
      run_id: handle.runId,
      thread_id: handle.threadId,
      data: { state: 'completed' },
    });
    expect(hook.got[2].headers['x-workbench-signature-256']).toBe(
      `sha256=${createHmac('sha256', 's3cret').update(hook.got[2].body).digest('hex')}`,
    );
    await wb!.close();
    wb = undefined;
    const db = openDatabase(join(sb.home, 'workbench.db'));
    expect(db.webhooks.forEvent(body.seq)).toEqual([
      { url: hook.url, state: 'delivered', attempts: 3, last_error: null },
    ]);
    // Run metadata is on the run's root span, so exported traces carry it.
    const root = db.spans.listByRun(handle.runId).find((sp) => !sp.parent_span_id)!;
    expect(root.attributes['workbench.metadata.ticket']).toBe('7');
    db.close();
  }, 20_000);
});

describe('webhooks of a short-lived process', () => {
  it('a run that ends just before its process closes still posts run_finalized', async () => {
    const hook = await receiver(0);
    writeFileSync(
      join(sb.home, 'settings.json'),
      JSON.stringify({ webhooks: [{ on: ['run_finalized'], url: hook.url }] }),
    );
    const { wb: w } = await start([{ text: 'done' }]);
    await (
      await w.chat.send({ text: 'go' })
    ).finished;
    await w.close();
    wb = undefined;
    expect(hook.got.map((g) => JSON.parse(g.body).type)).toEqual(['run_finalized']);
  });
});

describe('recipes', () => {
  it('the composer runs /name args as the recipe, and lists the recipes', async () => {
    mkdirSync(join(sb.home, 'recipes'));
    writeFileSync(
      join(sb.home, 'recipes', 'review.md'),
      '---\ndescription: Review a file\nargument-hint: FILE [FOCUS]\n---\nReview $1 with a focus on $2.\nAll: $ARGUMENTS\n',
    );
    // A workspace recipe of an untrusted workspace is not offered.
    mkdirSync(join(sb.ws, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(sb.ws, '.claude', 'commands', 'sneaky.md'), 'Do something else');
    const { wb, llm, events } = await start([{ text: 'reviewed' }]);
    const h = createHandlers({ workbench: wb, mode: 'serve', version: '1', secrets });
    const list = await dispatch(h, 'recipes.list', {});
    expect(list).toEqual({
      ok: true,
      value: [
        {
          name: 'review',
          description: 'Review a file',
          argument_hint: 'FILE [FOCUS]',
          source: 'user',
        },
      ],
    });
    const sent = await dispatch(h, 'chat.send', { text: '/review src/a.ts "error handling"' });
    expect(sent.ok).toBe(true);
    await until(() => events.some((e) => e.event === 'done'));
    const user = llm.calls[0].request.messages.filter((m) => m.role === 'user').at(-1)!;
    expect(user.content).toBe(
      'Review src/a.ts with a focus on error handling.\nAll: src/a.ts "error handling"',
    );
    const threadId = (sent as { value: { threadId: string } }).value.threadId;
    expect(wb.threads.summary({ threadId })!.metadata).toEqual({ recipe_name: 'review' });
    expect(wb.threads.runs({ threadId })[0].recipe).toBe('review');
  });

  it('an executable hook answering callback: NAME runs that recipe as a follow-up', async () => {
    await createTrustStore(sb.home).trust(sb.ws);
    mkdirSync(join(sb.ws, '.workbench', 'recipes'), { recursive: true });
    writeFileSync(join(sb.ws, '.workbench', 'recipes', 'tidy.md'), 'Tidy {{.target}} now.');
    const script = join(sb.wsHooks, 'tidy-once');
    writeFileSync(
      script,
      `#!/bin/sh
case "$1" in
  hook) echo agent_stop ;;
  run)
    cat > /dev/null
    if [ ! -f "${sb.home}/called" ]; then
      touch "${sb.home}/called"
      echo '{"result":"callback","callback":"tidy","callback_args":{"target":"the imports"}}'
    fi ;;
esac
`,
    );
    chmodSync(script, 0o755);
    const { wb, llm } = await start([{ text: 'first answer' }, { text: 'tidied' }]);
    const handle = await wb.chat.send({ text: 'work' });
    expect((await handle.finished).stop_reason).toBe('completed');
    const follow = llm.calls[1].request.messages.filter((m) => m.role === 'user').at(-1)!;
    expect(follow.content).toBe('Tidy the imports now.');
    expect(wb.threads.runs({ threadId: handle.threadId })[0].metadata).toEqual({
      invoked_recipe: 'tidy',
    });
    llm.assertComplete();
  });
});

describe('following other processes', () => {
  it('a workbench with followFeed (serve, the app) replays a CLI run of another process', async () => {
    const fake = await startFakeOpenAi({ script: [{ text: 'hello from the cli' }] });
    try {
      const llm = createScriptedLlm([]);
      wb = await createWorkbench({
        home: sb.home,
        workspace: sb.ws,
        llm,
        model: 'm',
        followFeed: true,
      });
      const events: StreamEvent[] = [];
      wb.subscribe((e) => events.push(e));
      const r = await runCli(['run', 'hi there'], {
        home: sb.home,
        workspace: sb.ws,
        baseURL: fake.baseURL,
      });
      expect(r.code).toBe(0);
      await until(() => events.some((e) => e.event === 'done'));
      const contents = events.flatMap((e) =>
        e.event === 'on_message' ? [e.data.message.content] : [],
      );
      expect(contents).toEqual(['hi there', 'hello from the cli']);
      expect(events.map((e) => e.event)).toEqual(
        expect.arrayContaining(['on_run_created', 'on_run_finalized', 'done']),
      );
      // Replayed events are not written to the feed a second time.
      const db = openDatabase(join(sb.home, 'workbench.db'));
      expect(db.events.since(0).filter((e) => e.type === 'message')).toHaveLength(2);
      db.close();
    } finally {
      await fake.close();
    }
  }, 30_000);
});

describe('thread metadata over IPC', () => {
  it('sets and removes keys, validated, and filters the thread list', async () => {
    const { wb } = await start([]);
    const h = createHandlers({ workbench: wb, mode: 'serve', version: '1', secrets });
    const t = wb.threads.create();
    expect(
      await dispatch(h, 'threads.setMetadata', {
        threadId: t.thread_id,
        set: { env: 'prod', owner: 'ana' },
      }),
    ).toEqual({
      ok: true,
      value: { env: 'prod', owner: 'ana' },
    });
    expect(
      await dispatch(h, 'threads.setMetadata', { threadId: t.thread_id, remove: ['owner'] }),
    ).toEqual({
      ok: true,
      value: { env: 'prod' },
    });
    expect(
      await dispatch(h, 'threads.setMetadata', { threadId: t.thread_id, set: { '': 'x' } }),
    ).toMatchObject({ ok: false });
    expect(
      await dispatch(h, 'threads.setMetadata', { threadId: 'th_nope', set: { a: 'b' } }),
    ).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    wb.threads.create();
    expect(wb.threads.list({ metadata: { env: 'prod' } }).map((s) => s.thread_id)).toEqual([
      t.thread_id,
    ]);
    expect(wb.threads.list({ metadata: { env: 'dev' } })).toEqual([]);
    expect(wb.threads.list()).toHaveLength(2);
  });
});

describe('deleting a thread', () => {
  it('mid-run, also deletes what the cancelled run writes as it ends (its hook run, its end in the feed)', async () => {
    const hooks = join(sb.home, 'hooks');
    mkdirSync(hooks, { recursive: true });
    const slow = join(hooks, 'slow-guard');
    writeFileSync(
      slow,
      '#!/bin/sh\nif [ "$1" = hook ]; then echo before_tool_call; exit 0; fi\ncat >/dev/null\nsleep 1\n',
    );
    chmodSync(slow, 0o755);
    const { wb: bench, events } = await start([
      { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { text: 'done' },
    ]);
    writeFileSync(join(sb.ws, 'a.txt'), 'a');
    const handle = await bench.chat.send({ text: 'go', approvalMode: 'auto' });
    await until(() => events.some((e) => e.event === 'on_tool_start'));
    bench.threads.delete({ threadId: handle.threadId });
    await handle.finished.catch(() => undefined);
    // The hook was cut short by the delete, so its row was written after it.
    expect(events.find((e) => e.event === 'on_hook_end')?.data).toMatchObject({
      reason: 'cancelled',
    });
    await bench.close();
    wb = undefined;
    const db = openDatabase(join(sb.home, 'workbench.db'));
    expect(db.threads.get(handle.threadId)).toBeUndefined();
    expect(db.events.since(0, { threadId: handle.threadId })).toEqual([]);
    expect(db.hookRuns.recent({ threadId: handle.threadId })).toEqual([]);
    db.close();
  });
});

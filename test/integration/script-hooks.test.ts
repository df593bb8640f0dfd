/**
 * A profile's script hook in a whole workbench: agent.yaml `script:` (relative to the file), the real
 * OpenAI client against the fake server, trust, the hooks panel, spans and hook_runs.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import { createTrustStore } from '../../src/main/user-hooks/index.ts';
import type { StreamEvent } from '../../src/shared/types/index.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai-server.ts';

let base: string;
let ws: string;
let home: string;
let fake: FakeOpenAi | undefined;
let wb: Workbench | undefined;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-script-int-')));
  ws = join(base, 'ws');
  home = join(base, 'home');
  mkdirSync(join(ws, '.workbench'), { recursive: true });
  mkdirSync(home);
});
afterEach(async () => {
  await wb?.close();
  await fake?.close();
  wb = undefined;
  fake = undefined;
  rmSync(base, { recursive: true, force: true });
});

/** agent.yaml naming `./hooks.ts` beside it, and that script. */
function profileWithScript(source: string): void {
  writeFileSync(join(ws, '.workbench', 'agent.yaml'), 'name: main\nscript: ./hooks.ts\n');
  writeFileSync(join(ws, '.workbench', 'hooks.ts'), source);
}

async function start(trusted: boolean, script: Parameters<typeof startFakeOpenAi>[0] = {}) {
  if (trusted) await createTrustStore(home).trust(ws);
  fake = await startFakeOpenAi(script);
  wb = await createWorkbench({
    home,
    workspace: ws,
    baseURL: fake.baseURL,
    apiKey: 'test',
    interactive: false,
  });
  const events: StreamEvent[] = [];
  wb.subscribe((e) => events.push(e));
  return { wb, fake, events };
}

const CREATE_PARAMS = `
import { writeFileSync } from 'node:fs';
export function Create(ctx: { workspace: string; trace: { info(m: string): void } }) {
  writeFileSync(ctx.workspace + '/create-ran', 'yes');
  ctx.trace.info('params set');
  return { temperature: 0.25, max_tokens: 77 };
}
export function Next() { return { data: { status: 'success' } }; }
`;

describe('script hooks in a workbench', () => {
  it('Create’s temperature and max_tokens are in the body of every request the server receives', async () => {
    profileWithScript(CREATE_PARAMS);
    const { wb, fake, events } = await start(true, {
      script: [{ toolCalls: [{ name: 'ls', args: { path: '.' } }] }, { text: 'listed' }],
    });
    const done = await (
      await wb.chat.send({ text: 'list the files', approvalMode: 'auto' })
    ).finished;
    expect(done.stop_reason).toBe('completed');
    const bodies = fake.chatRequests();
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(body).toMatchObject({ temperature: 0.25, max_tokens: 77 });
    expect(events.find((e) => e.event === 'on_script_data')?.data).toEqual({
      hook: 'script:main',
      data: { status: 'success' },
    });

    // Recorded: a hook span per call (with the script's trace line) and a hook_runs row holding Next's data.
    const threadId = events[0].thread_id;
    const spans = wb.trace.list({ threadId }).filter((s) => s.kind === 'hook');
    expect(spans.map((s) => s.name)).toEqual(['hook Create script:main', 'hook Next script:main']);
    expect(JSON.stringify(spans[0])).toContain('params set');
    const next = wb.trace.hookRun({ threadId, spanId: spans[1].span_id });
    expect(next).toMatchObject({ hook_id: 'script:main', event: 'Next', decision: 'ok' });
    expect(JSON.parse(next!.stdout)).toEqual({ data: { status: 'success' } });

    const listed = (await wb.hooks.list({ workspace: ws })).hooks.find(
      (h) => h.id === 'script:main',
    );
    expect(listed).toMatchObject({
      dialect: 'script',
      events: ['Create', 'Next'],
      trusted: true,
      enabled: true,
    });
    expect(listed?.problem).toBeUndefined();
    expect(listed?.health?.last).toEqual(['ok', 'ok']);
  });

  it('an untrusted workspace’s script does not run and is listed as inert', async () => {
    profileWithScript(CREATE_PARAMS);
    const { wb, fake, events } = await start(false, { script: [{ text: 'plain answer' }] });
    const done = await (await wb.chat.send({ text: 'hello', approvalMode: 'auto' })).finished;
    expect(done.stop_reason).toBe('completed');
    expect(existsSync(join(ws, 'create-ran'))).toBe(false);
    expect(fake.chatRequests()[0].temperature).toBeUndefined();
    expect(events.some((e) => e.event === 'on_hook_end' && e.data.hook === 'script:main')).toBe(
      false,
    );
    expect(events.some((e) => e.event === 'error' && e.data.message.includes('not trusted'))).toBe(
      true,
    );
    const listed = (await wb.hooks.list({ workspace: ws })).hooks.find(
      (h) => h.id === 'script:main',
    );
    expect(listed).toMatchObject({
      trusted: false,
      problem: expect.stringContaining('not trusted'),
    });
  });
});

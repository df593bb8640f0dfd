/**
 * An MCP server asking the user for input while its tool runs (MCP elicitation; docs/tools.md#when-a-server-asks-you),
 * through a whole run with the real SDK demo server over stdio: the person answers in the app (a form
 * that does not fit is refused and keeps waiting, the call's deadline stops meanwhile), a page to
 * open, nobody to answer in the CLI, and Claude Code's Elicitation / ElicitationResult hooks.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../../src/main/api/workbench.ts';
import type { Workbench } from '../../../src/main/api/types.ts';
import type { StreamEvent, StreamEventData } from '../../../src/shared/types/index.ts';
import { createTrustStore } from '../../../src/main/user-hooks/index.ts';
import { createScriptedLlm } from '../../helpers/scripted-llm.ts';
import { DEMO_MCP_SERVER } from '../../helpers/mcp-http-server.ts';
import { useClaudeSandbox } from '../../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
let wb: Workbench | undefined;
const realHome = process.env.HOME;
beforeEach(() => {
  process.env.HOME = env.sb.home;
});
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  process.env.HOME = realHome;
});

type Request = StreamEventData['on_elicitation_request'];
type Resolved = StreamEventData['on_elicitation_resolved'];

/** Runs one call of a demo tool; `onRequest` answers what the server asks. Returns the tool's output. */
async function callDemo(
  tool: string,
  o: { interactive: boolean; onRequest?: (r: Request) => Promise<void> | void; settings?: object },
): Promise<{
  output: string;
  error?: string;
  requests: Request[];
  resolved: Resolved[];
  messages: string[];
  waited?: unknown;
}> {
  await createTrustStore(env.sb.home).trust(env.sb.ws);
  writeFileSync(
    join(env.sb.ws, '.mcp.json'),
    JSON.stringify({
      mcpServers: { demo: { command: process.execPath, args: [DEMO_MCP_SERVER] } },
    }),
  );
  if (o.settings) writeFileSync(join(env.sb.home, 'settings.json'), JSON.stringify(o.settings));
  const llm = createScriptedLlm([
    { toolCalls: [{ name: `mcp__demo__${tool}`, args: {} }] },
    { text: 'done' },
  ]);
  wb = await createWorkbench({
    home: env.sb.home,
    workspace: env.sb.ws,
    llm,
    interactive: o.interactive,
  });
  const events: StreamEvent[] = [];
  const answering: Promise<void>[] = [];
  wb.subscribe((e) => {
    events.push(e);
    if (e.event === 'on_elicitation_request')
      answering.push(Promise.resolve(o.onRequest?.(e.data)));
  });
  const done = await (await wb.chat.send({ text: 'go', approvalMode: 'auto' })).finished;
  await Promise.all(answering);
  expect(done.stop_reason).toBe('completed');
  const end = events.find((e) => e.event === 'on_tool_end');
  return {
    output: end?.event === 'on_tool_end' ? end.data.output : '',
    error: end?.event === 'on_tool_end' ? end.data.error : undefined,
    requests: events.flatMap((e) => (e.event === 'on_elicitation_request' ? [e.data] : [])),
    resolved: events.flatMap((e) => (e.event === 'on_elicitation_resolved' ? [e.data] : [])),
    messages: events.flatMap((e) => (e.event === 'on_hook_message' ? [e.data.message] : [])),
    waited: events.flatMap((e) =>
      e.event === 'on_span_end' && e.data.span.kind === 'tool'
        ? [e.data.span.attributes['workbench.elicitation.wait_ms']]
        : [],
    )[0],
  };
}

/** A Claude Code hook answering `event` with `script` (a shell script body), input saved to `input-<event>.json`. */
function claudeHook(hooks: Record<string, string>): void {
  const settings: Record<string, unknown[]> = {};
  for (const [event, body] of Object.entries(hooks)) {
    const file = join(env.sb.home, `${event}.sh`);
    writeFileSync(file, `#!/bin/sh\ncat > ${join(env.sb.home, `input-${event}.json`)}\n${body}\n`);
    chmodSync(file, 0o755);
    settings[event] = [
      {
        matcher: event === 'Notification' ? 'elicitation_dialog' : 'demo',
        hooks: [{ type: 'command', command: file }],
      },
    ];
  }
  writeFileSync(join(env.claudeDir, 'settings.json'), JSON.stringify({ hooks: settings }));
}
const hookInput = (event: string) =>
  JSON.parse(readFileSync(join(env.sb.home, `input-${event}.json`), 'utf8'));

describe('MCP elicitation', () => {
  it('shows the form to the person; an answer that does not fit is refused and keeps waiting, the call’s deadline paused', async () => {
    const { output, resolved, waited } = await callDemo('signup', {
      interactive: true,
      // A 300 ms deadline on the demo server's calls: the person takes longer, and that is not the server's time.
      settings: { mcp_overrides: { demo: { timeout_ms: 300 } } },
      async onRequest(r) {
        expect(r).toMatchObject({ server: 'demo', message: 'Who is signing up?', mode: 'form' });
        expect(r.fields?.map((f) => [f.name, f.kind, f.title, f.required])).toEqual([
          ['name', 'string', 'Your name', true],
          ['email', 'string', 'Email', false],
          ['age', 'number', 'Age', false],
          ['plan', 'choice', 'Plan', true],
          ['newsletter', 'boolean', 'Newsletter', false],
        ]);
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect(
          wb!.chat.answerElicitation({
            elicitationId: r.elicitation_id,
            action: 'accept',
            content: { name: 'A', plan: 'pro' },
          }),
        ).toEqual({
          accepted: false,
          error: 'Your name must be at least 2 characters',
        });
        expect(
          wb!.chat.answerElicitation({
            elicitationId: r.elicitation_id,
            action: 'accept',
            content: { name: 'Ada', plan: 'gold' },
          }).error,
        ).toBe('Plan must be one of the choices');
        const threadId = wb!.chat.running()[0]!;
        expect(wb!.chat.pendingElicitations({ threadId }).map((p) => p.elicitation_id)).toEqual([
          r.elicitation_id,
        ]);
        expect(
          wb!.chat.answerElicitation({
            elicitationId: r.elicitation_id,
            action: 'accept',
            content: { name: 'Ada', plan: 'pro', newsletter: true, age: 36 },
          }),
        ).toEqual({ accepted: true });
        expect(
          wb!.chat.answerElicitation({ elicitationId: r.elicitation_id, action: 'decline' })
            .accepted,
        ).toBe(false);
      },
    });
    expect(output).toBe('signup accept: {"name":"Ada","plan":"pro","newsletter":true,"age":36}');
    expect(resolved).toEqual([
      expect.objectContaining({ server: 'demo', action: 'accept', answered_by: 'user' }),
    ]);
    // The timeline counts the person's 600 ms as waiting for them, not as the tool's time.
    expect(waited).toBeGreaterThanOrEqual(550);
  });

  it('sends the person to a page and tells the server they declined; Notification hooks hear of the request', async () => {
    claudeHook({ Notification: 'exit 0' });
    const { output } = await callDemo('login', {
      interactive: true,
      async onRequest(r) {
        // The hook hears of it while the request waits (its process writes its input, then exits).
        const input = join(env.sb.home, 'input-Notification.json');
        while (!existsSync(input) || !readFileSync(input, 'utf8').endsWith('}'))
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(r).toMatchObject({
          mode: 'url',
          url: 'https://login.example.test/authorize?client=demo',
          message: 'Sign in to Demo',
        });
        expect(r.fields).toBeUndefined();
        wb!.chat.answerElicitation({ elicitationId: r.elicitation_id, action: 'decline' });
      },
    });
    expect(output).toBe('login decline');
    expect(hookInput('Notification')).toMatchObject({
      notification_type: 'elicitation_dialog',
      message: 'MCP server demo asks: Sign in to Demo',
    });
  });

  it('a page the server reports finished needs no answer from the person', async () => {
    const { output, requests, resolved } = await callDemo('login_finished', { interactive: true });
    expect(requests).toEqual([
      expect.objectContaining({ mode: 'url', message: 'Sign in to Demo again' }),
    ]);
    expect(requests[0]!.required).toBeUndefined();
    expect(resolved).toEqual([
      expect.objectContaining({ action: 'accept', answered_by: 'server' }),
    ]);
    expect(output).toBe('login accept');
    expect(wb!.chat.pendingElicitations({ threadId: wb!.threads.list()[0]!.thread_id })).toEqual(
      [],
    );
  });

  it('a call the server refuses until a page is finished asks the person, then is tried again', async () => {
    const { output, resolved } = await callDemo('files', {
      interactive: true,
      // The deadline stops while the person is on the page, as for any request.
      settings: { mcp_overrides: { demo: { timeout_ms: 300 } } },
      async onRequest(r) {
        expect(r).toMatchObject({
          server: 'demo',
          mode: 'url',
          required: true,
          message: 'Connect your Example account',
          url: 'https://accounts.example.test/connect?elicitation=connect-1',
        });
        await new Promise((resolve) => setTimeout(resolve, 600));
        wb!.chat.answerElicitation({ elicitationId: r.elicitation_id, action: 'accept' });
      },
    });
    expect(resolved).toEqual([expect.objectContaining({ action: 'accept', answered_by: 'user' })]);
    expect(output).toBe('files: a.txt b.txt');
  });

  it('a refused call is tried again when the server reports the page finished; declined, it fails saying what was needed', async () => {
    const finished = await callDemo('files_finished', { interactive: true });
    expect(finished.resolved).toEqual([
      expect.objectContaining({ action: 'accept', answered_by: 'server' }),
    ]);
    expect(finished.output).toBe('files: a.txt b.txt');
    await wb!.close();
    wb = undefined;
    const declined = await callDemo('files', {
      interactive: true,
      onRequest: (r) =>
        void wb!.chat.answerElicitation({ elicitationId: r.elicitation_id, action: 'decline' }),
    });
    expect(declined.error).toBe(
      'MCP server "demo" needs a page finished before this call: Connect your Example account (https://accounts.example.test/connect?elicitation=connect-1); declined',
    );
    await wb!.close();
    wb = undefined;
    const nobody = await callDemo('files', { interactive: false });
    expect(nobody.resolved).toEqual([
      expect.objectContaining({ action: 'decline', answered_by: 'nobody' }),
    ]);
    expect(nobody.error).toMatch(
      /needs a page finished before this call: Connect your Example account/,
    );
  });

  it('asks a server’s questions one at a time, each after the one before was answered', async () => {
    const seen: string[] = [];
    const { output } = await callDemo('twice', {
      interactive: true,
      async onRequest(r) {
        const threadId = wb!.chat.running()[0]!;
        seen.push(`${r.message} (${wb!.chat.pendingElicitations({ threadId }).length} waiting)`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        wb!.chat.answerElicitation({
          elicitationId: r.elicitation_id,
          action: r.message === 'First?' ? 'accept' : 'decline',
          content: { ok: true },
        });
      },
    });
    expect(seen).toEqual(['First? (1 waiting)', 'Second? (1 waiting)']);
    expect(output).toBe('twice accept decline');
  });

  it('declines where nobody can answer (the CLI), and says so', async () => {
    const { output, resolved } = await callDemo('signup', {
      interactive: false,
      onRequest: () => expect.fail('nobody can be asked'),
    });
    expect(output).toBe('signup decline: {}');
    expect(resolved).toEqual([
      expect.objectContaining({
        action: 'decline',
        answered_by: 'nobody',
        reason: 'nobody can answer here',
      }),
    ]);
  });

  it("Claude Code's Elicitation hook answers in the person's place, with Claude Code's input", async () => {
    claudeHook({
      Elicitation: `echo '{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":{"name":"Hook","plan":"free"}}}'`,
    });
    const { output, resolved } = await callDemo('signup', { interactive: false });
    expect(output).toBe('signup accept: {"name":"Hook","plan":"free"}');
    expect(resolved).toEqual([
      expect.objectContaining({
        action: 'accept',
        answered_by: 'hook',
        hook: expect.stringContaining('Elicitation.sh'),
      }),
    ]);
    expect(hookInput('Elicitation')).toMatchObject({
      hook_event_name: 'Elicitation',
      mcp_server_name: 'demo',
      message: 'Who is signing up?',
      mode: 'form',
      requested_schema: { type: 'object', required: ['name', 'plan'] },
    });
  });

  it("a hook's answer that does not fit the form is declined and said; ElicitationResult exit 2 turns the person's accept into a decline", async () => {
    claudeHook({
      Elicitation: `echo '{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":{"plan":"free"}}}'`,
    });
    const unfit = await callDemo('signup', { interactive: false });
    expect(unfit.output).toBe('signup decline: {}');
    expect(unfit.messages).toEqual(['its answer to demo was declined: Your name is required']);
    await wb!.close();
    wb = undefined;
    claudeHook({ ElicitationResult: `echo 'not this one, by policy' >&2; exit 2` });
    const overruled = await callDemo('signup', {
      interactive: true,
      onRequest: (r) =>
        void wb!.chat.answerElicitation({
          elicitationId: r.elicitation_id,
          action: 'accept',
          content: { name: 'Ada', plan: 'pro' },
        }),
    });
    expect(overruled.output).toBe('signup decline: {}');
    expect(overruled.messages).toEqual(['not this one, by policy']);
    expect(hookInput('ElicitationResult')).toMatchObject({
      mcp_server_name: 'demo',
      action: 'accept',
      content: { name: 'Ada', plan: 'pro' },
      mode: 'form',
    });
  });
});

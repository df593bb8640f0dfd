/**
 * A profile's script hook through the agent loop: Create's parameters and messages on every request,
 * delegation from Create and from Next, memory shared between them, Next's data, chat output, and a
 * throwing or hanging script isolated from the run.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookEnds, runWithScript, scriptFolder } from './harness.ts';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let folder: ReturnType<typeof scriptFolder>;
beforeEach(() => {
  folder = scriptFolder();
});
afterEach(() => folder.cleanup());

const run = (source: string, o: Omit<Parameters<typeof runWithScript>[2], 'script'>) =>
  runWithScript(folder.dir, folder.write(source), { script: source, ...o });

describe('script hooks: Create', () => {
  it('sets temperature, max_tokens and max_completion_tokens on every model request of the run', async () => {
    const r = await run(
      `export function Create() { return { temperature: 0.2, max_tokens: 321, max_completion_tokens: 400 }; }`,
      { turns: [{ toolCalls: [{ name: 'classify', args: { value: 'x' } }] }, { text: 'done' }] },
    );
    expect(r.summary.stop_reason).toBe('completed');
    expect(r.llm.calls).toHaveLength(2);
    for (const { request } of r.llm.calls) {
      expect(request.params).toMatchObject({
        temperature: 0.2,
        max_tokens: 321,
        max_completion_tokens: 400,
      });
    }
  });

  it('loads as an ES module inside a package whose package.json says "type": "commonjs"', async () => {
    writeFileSync(join(folder.dir, 'package.json'), '{"type":"commonjs"}');
    writeFileSync(join(folder.dir, 'level.ts'), 'export const LEVEL: number = 0.4;\n');
    const r = await run(
      `import { LEVEL } from './level.ts';
       export function Create() { return { temperature: LEVEL }; }`,
      { turns: [{ text: 'ok' }] },
    );
    expect(r.llm.calls[0].request.params.temperature).toBe(0.4);
  });

  it('replaces the input messages the model sees, keeping what the run adds after them', async () => {
    const r = await run(
      `export function Create(ctx: unknown, messages: Array<{ role: string; content: string }>) {
         return { messages: [{ role: 'user', content: messages[0].content.toUpperCase() + ' (rewritten)' }] };
       }`,
      { turns: [{ toolCalls: [{ name: 'classify', args: { value: 'x' } }] }, { text: 'done' }] },
    );
    expect(r.llm.calls[0].request.messages).toEqual([{ role: 'user', content: 'GO (rewritten)' }]);
    expect(r.llm.calls[1].request.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
    ]);
    expect(r.llm.calls[1].request.messages[0].content).toBe('GO (rewritten)');
    // The stored thread keeps what the user wrote.
    expect(r.messages[0].content).toBe('go');
  });

  it('may hand back the history it was given, tool calls and all', async () => {
    const history = [
      { role: 'user' as const, content: 'first' },
      {
        role: 'assistant' as const,
        content: '',
        tool_calls: [{ id: 'h1', name: 'classify', args: { value: 'a' } }],
      },
      { role: 'tool' as const, content: '{"intent":"a"}', tool_call_id: 'h1', name: 'classify' },
      { role: 'assistant' as const, content: 'earlier answer' },
      { role: 'user' as const, content: 'second' },
    ];
    const r = await run(
      `export function Create(ctx: unknown, messages: unknown[]) { return { messages, temperature: 0.5 }; }`,
      { turns: [{ text: 'ok' }], history },
    );
    expect(r.events.find((e) => e.event === 'on_hook_end')?.data).toMatchObject({ ok: true });
    expect(r.llm.calls[0].request.messages).toEqual(history);
    expect(r.llm.calls[0].request.params.temperature).toBe(0.5);
  });

  it('messages that are no valid conversation are refused, and nothing of the answer applies', async () => {
    const r = await run(
      `export function Create() {
         return { temperature: 0.9, messages: [{ role: 'tool', content: 'orphan', tool_call_id: 'x', name: 'classify' }] };
       }`,
      { turns: [{ text: 'ok' }] },
    );
    expect(r.llm.calls[0].request.messages).toEqual([{ role: 'user', content: 'go' }]);
    expect(r.llm.calls[0].request.params).toEqual({});
    const end = r.events.find((e) => e.event === 'on_hook_end');
    expect(end?.data).toMatchObject({ ok: false });
    expect(JSON.stringify(end?.data)).toContain('Create returned an invalid answer: messages');
  });

  it('delegating: the agent’s own model is never called and the delegate’s answer is the run’s answer', async () => {
    const r = await run(
      `export function Create(ctx: any, messages: any[]) {
         return { delegate: { agent_id: 'search', messages: [{ role: 'user', content: 'search: ' + messages.at(-1).content }], options: { temperature: 0.1 } } };
       }
       export function Next() { return { data: 'must not run' }; }`,
      { turns: [], subTurns: [{ text: 'found 3 results' }] },
    );
    expect(r.summary.stop_reason).toBe('completed');
    expect(r.llm.calls).toHaveLength(0);
    expect(r.delegated).toEqual([
      expect.objectContaining({
        agent: 'search',
        messages: [{ role: 'user', content: 'search: go' }],
        options: { temperature: 0.1 },
      }),
    ]);
    expect(r.messages.at(-1)).toEqual({ role: 'assistant', content: 'found 3 results' });
    expect(hookEnds(r.events)).toEqual(['Create:true']);
    expect(r.trace.spans.map((s) => s.name)).toEqual([
      'hook Create script:main',
      'delegate search',
    ]);
    expect(r.events.some((e) => e.event === 'on_script_data')).toBe(false);
  });

  it('a delegate that cannot run (no subagents here) is reported and the agent’s model answers', async () => {
    const r = await run(
      `export function Create() { return { delegate: { agent_id: 'search' } }; }`,
      {
        turns: [{ text: 'my own answer' }],
        noSubagents: true,
      },
    );
    expect(r.messages.at(-1)?.content).toBe('my own answer');
    const failure = r.events.find((e) => e.event === 'on_hook_end' && !e.data.ok);
    expect(failure?.data).toMatchObject({ hook: 'script:main', event: 'wrap_model_call' });
    expect(JSON.stringify(failure?.data)).toContain('cannot delegate to \\"search\\"');
  });
});

describe('script hooks: Next', () => {
  it('delegating after a tool call: sees the tool result and the delegate’s answer replaces the response', async () => {
    const r = await run(
      `export function Next(ctx: any, payload: any) {
         const intent = payload.tools[0]?.result?.intent;
         if (intent === 'write') return { delegate: { agent_id: 'writer', messages: payload.messages } };
         return null;
       }`,
      {
        turns: [
          { toolCalls: [{ id: 'c1', name: 'classify', args: { value: 'write' } }] },
          { text: 'original answer' },
        ],
        subTurns: [{ text: 'the writer’s answer' }],
      },
    );
    expect(r.summary.stop_reason).toBe('completed');
    expect(r.delegated.map((d) => d.agent)).toEqual(['writer']);
    expect(r.subLlm.calls[0].request.messages).toEqual([{ role: 'user', content: 'go' }]);
    expect(r.messages.at(-1)).toEqual({ role: 'assistant', content: 'the writer’s answer' });
    expect(r.messages.filter((m) => m.content === 'original answer')).toEqual([]);
    const replaced = r.events.find((e) => e.event === 'on_message');
    expect(replaced?.data).toEqual({
      index: r.messages.length - 1,
      message: { role: 'assistant', content: 'the writer’s answer' },
    });
  });

  it('shares ctx.memory.context with Create and delivers its data with the whole payload', async () => {
    const r = await run(
      `export function Create(ctx: any) {
         ctx.memory.context.set('started', 'at-create');
         ctx.memory.context.Set('count', 1);
         return { metadata: { route: 'chat' } };
       }
       export function Next(ctx: any, payload: any) {
         return { data: {
           started: ctx.memory.context.get('started'),
           count: ctx.memory.context.Get('count'),
           route: ctx.metadata.route,
           thread: ctx.thread_id,
           profile: ctx.profile,
           answer: payload.completion.content,
           tools: payload.tools.map((t: any) => [t.toolcall_id, t.tool, t.arguments.value, t.result.intent]),
           usage: payload.completion.usage.output_tokens,
         } };
       }`,
      {
        turns: [
          { toolCalls: [{ id: 'c1', name: 'classify', args: { value: 'query' } }] },
          { text: 'final', usage: { input_tokens: 5, output_tokens: 7 } },
        ],
      },
    );
    const data = r.events.find((e) => e.event === 'on_script_data');
    expect(data?.data).toEqual({
      hook: 'script:main',
      data: {
        started: 'at-create',
        count: 1,
        route: 'chat',
        thread: 'th_test',
        profile: 'main',
        answer: 'final',
        tools: [['c1', 'classify', 'query', 'query']],
        usage: 7,
      },
    });
    expect(hookEnds(r.events)).toEqual(['Create:true', 'Next:true']);
  });

  it('runs with the model error when the run fails, and still delivers its data', async () => {
    const r = await run(
      `export function Next(ctx: any, payload: any) { return { data: { error: payload.error } }; }`,
      {
        turns: [{ throw: new Error('model unreachable') }],
      },
    );
    expect(r.summary.stop_reason).toBe('error');
    expect(r.events.find((e) => e.event === 'on_script_data')?.data).toMatchObject({
      data: { error: 'model unreachable' },
    });
  });
});

describe('script hooks: ctx output and isolation', () => {
  it('send and sendStream reach the event stream as deltas and as whole messages; trace lines become span events', async () => {
    const r = await run(
      `export function Create(ctx: any) {
         ctx.send('Routing…');
         const id = ctx.sendStream('## Results');
         ctx.append(id, ' one');
         ctx.append(' two');
         ctx.end(id);
         ctx.trace.warn('slow tool');
         return null;
       }`,
      { turns: [{ text: 'ok' }] },
    );
    const deltas = r.events.flatMap((e) =>
      e.event === 'on_chat_model_stream' ? [e.data.delta] : [],
    );
    expect(deltas.slice(0, 4)).toEqual(['Routing…', '## Results', ' one', ' two']);
    const said = r.events.flatMap((e) => (e.event === 'on_script_message' ? [e.data.text] : []));
    expect(said).toEqual(['Routing…', '## Results one two']);
    expect(r.trace.spans.find((s) => s.name === 'hook Create script:main')?.events).toEqual([
      'script.warn slow tool',
    ]);
  });

  it('a throwing Create is reported (hook_error, on_hook_end ok:false) and the run finishes', async () => {
    const r = await run(`export function Create() { throw new Error('boom in Create'); }`, {
      turns: [{ text: 'answer anyway' }],
    });
    expect(r.summary.stop_reason).toBe('completed');
    expect(r.messages.at(-1)?.content).toBe('answer anyway');
    const end = r.events.find((e) => e.event === 'on_hook_end');
    expect(end?.data).toMatchObject({
      hook: 'script:main',
      event: 'Create',
      ok: false,
      reason: 'boom in Create',
      failed: 'open',
    });
    expect(r.trace.events).toContain('hook_error');
    expect(r.trace.spans[0]).toMatchObject({
      name: 'hook Create script:main',
      failed: 'hook_error',
    });
  });

  it('a hanging Next is stopped at its deadline and the run finishes', async () => {
    const started = Date.now();
    const r = await run(`export function Next() { for (;;) {} }`, {
      turns: [{ text: 'fine' }],
      deadlineMs: 700,
    });
    expect(r.summary.stop_reason).toBe('completed');
    expect(Date.now() - started).toBeLessThan(5_000);
    const end = r.events.find((e) => e.event === 'on_hook_end' && e.data.event === 'Next');
    expect(end?.data).toMatchObject({ ok: false, timed_out: true });
    expect(r.trace.spans.find((s) => s.name === 'hook Next script:main')?.failed).toBe('timeout');
  });

  it('cancelling the run kills the script at once', async () => {
    let cancelledAt = 0;
    const pidWritten = () => {
      if (!cancelledAt && existsSync(join(folder.dir, 'pid'))) cancelledAt = Date.now();
      return cancelledAt > 0;
    };
    const r = await run(
      `import { writeFileSync } from 'node:fs';
       export function Create(ctx: { workspace: string }) {
         writeFileSync(ctx.workspace + '/pid', String(process.pid));
         for (;;) {}
       }`,
      { turns: [], cancelWhen: pidWritten },
    );
    expect(r.summary.stop_reason).toBe('cancelled');
    // Well before the 10 s deadline: the cancel itself ended the call.
    expect(Date.now() - cancelledAt).toBeLessThan(3_000);
    const pid = Number(readFileSync(join(folder.dir, 'pid'), 'utf8'));
    await expect.poll(() => alive(pid)).toBe(false);
  });

  it('an invalid answer is a failure of the hook, and nothing of it is applied', async () => {
    const r = await run(`export function Create() { return { temperature: 'hot' }; }`, {
      turns: [{ text: 'ok' }],
    });
    expect(r.llm.calls[0].request.params).toEqual({});
    expect(r.events.find((e) => e.event === 'on_hook_end')?.data).toMatchObject({ ok: false });
    expect(JSON.stringify(r.events)).toContain('Create returned an invalid answer: temperature');
  });
});

import { describe, expect, it } from 'vitest';
import { runAgentLoop } from '../../../src/main/agent/loop.ts';
import { validate } from '../../../src/main/agent/messages.ts';
import type { Hook } from '../../../src/main/pipeline/hook.ts';
import { createPipeline } from '../../../src/main/pipeline/run-phase.ts';
import { ToolError } from '../../../src/main/tools/types.ts';
import { harness, scriptedLlm, testTool } from './loop-harness.ts';

const call = (id: string, name: string, args: Record<string, unknown> = {}) => ({ id, name, args });

describe('agent loop', () => {
  it('runs parallel tool calls and appends results in call order', async () => {
    const finished: string[] = [];
    const slow = testTool('slow', 'read', async () => {
      await new Promise((r) => setTimeout(r, 30));
      finished.push('slow');
      return 'slow done';
    });
    const fast = testTool('fast', 'read', async () => {
      finished.push('fast');
      return 'fast done';
    });
    const llm = scriptedLlm([{ tool_calls: [call('c1', 'slow'), call('c2', 'fast')] }, { content: 'all done' }]);
    const h = harness(llm, [slow, fast]);
    const summary = await runAgentLoop({ ctx: h.ctx, pipeline: createPipeline([h.toolHook]), maxIterations: 25, append: h.append, replaceMessages: h.replace });

    expect(summary).toMatchObject({ stop_reason: 'completed', iterations: 2 });
    expect(finished).toEqual(['fast', 'slow']); // really concurrent
    const tools = h.state.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => [m.tool_call_id, m.content])).toEqual([['c1', 'slow done'], ['c2', 'fast done']]);
    expect(h.state.messages.at(-1)).toEqual({ role: 'assistant', content: 'all done' });
    expect(() => validate(h.state.messages)).not.toThrow();
    // The second request carries the tool results; tool schemas are sent every time.
    expect(llm.requests[1].messages.filter((m) => m.role === 'tool')).toHaveLength(2);
    expect(llm.requests[0].tools.map((t) => t.name)).toEqual(['slow', 'fast']);
    const names = h.events.map((e) => e.event);
    expect(names.filter((n) => n === 'on_tool_start')).toHaveLength(2);
    expect(names).toContain('on_tools_complete');
    expect(names.filter((n) => n === 'on_chat_model_stream')).toHaveLength(1);
  });

  it('stops at max iterations', async () => {
    const loopForever = Array.from({ length: 5 }, (_, i) => ({ tool_calls: [call(`c${i}`, 'echo')] }));
    const h = harness(scriptedLlm(loopForever), [testTool('echo', 'read', async () => 'again')]);
    const summary = await runAgentLoop({ ctx: h.ctx, pipeline: createPipeline([h.toolHook]), maxIterations: 3, append: h.append, replaceMessages: h.replace });
    expect(summary).toMatchObject({ stop_reason: 'max_iterations', iterations: 3 });
    expect(() => validate(h.state.messages)).not.toThrow();
  });

  it('turns malformed arguments, unknown tools and invalid args into error results the model can correct', async () => {
    const llm = scriptedLlm([
      { tool_calls: [call('bad', 'echo'), call('nope', 'teleport'), call('typed', 'echo', { value: 42 })], invalid_args: { bad: 'Unexpected token } in JSON' } },
      { content: 'fixed' },
    ]);
    const h = harness(llm, [testTool('echo', 'read', async () => 'ok')]);
    await runAgentLoop({ ctx: h.ctx, pipeline: createPipeline([h.toolHook]), maxIterations: 5, append: h.append, replaceMessages: h.replace });
    const results = h.state.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toMatch(/^Error: invalid JSON in the arguments of echo: Unexpected token/);
    expect(results[1]).toMatch(/^Error: unknown tool "teleport". Available tools: echo/);
    expect(results[2]).toMatch(/^Error: invalid arguments for echo: value:/);
    expect(h.state.messages.at(-1)?.content).toBe('fixed');
  });

  it('keeps the partial text of a broken stream, marks it interrupted and runs none of its tool calls', async () => {
    let ran = false;
    const llm = scriptedLlm([{ content: 'Let me', interrupted: true, error: 'socket hang up' }]);
    const h = harness(llm, [testTool('echo', 'read', async () => ((ran = true), 'x'))]);
    const summary = await runAgentLoop({ ctx: h.ctx, pipeline: createPipeline([h.toolHook]), maxIterations: 5, append: h.append, replaceMessages: h.replace });
    expect(summary.stop_reason).toBe('error');
    expect(summary.error).toContain('socket hang up');
    expect(h.state.messages.at(-1)).toEqual({ role: 'assistant', content: 'Let me', interrupted: true });
    expect(ran).toBe(false);
    expect(() => validate(h.state.messages)).not.toThrow();
  });

  it('cancel aborts running tools and answers every open call', async () => {
    const started = Promise.withResolvers<void>();
    const hang = testTool('hang', 'read', (_a, signal) => {
      started.resolve();
      return new Promise((_r, reject) => signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))));
    });
    const h = harness(scriptedLlm([{ tool_calls: [call('h1', 'hang'), call('h2', 'hang')] }]), [hang]);
    const run = runAgentLoop({ ctx: h.ctx, pipeline: createPipeline([h.toolHook]), maxIterations: 5, append: h.append, replaceMessages: h.replace });
    await started.promise;
    h.controller.abort();
    const summary = await run;
    expect(summary.stop_reason).toBe('cancelled');
    const tools = h.state.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.tool_call_id)).toEqual(['h1', 'h2']);
    expect(tools[0].content).toMatch(/cancelled/);
    expect(() => validate(h.state.messages)).not.toThrow();
  });

  it('continues the loop with follow-up messages from every agent_stop hook', async () => {
    const follow = (name: string, text: string): Hook => {
      let asked = false;
      return {
        name,
        source: 'user',
        onAgentStop: async () => {
          if (asked) return {};
          asked = true;
          return { follow_up_messages: [text] };
        },
      };
    };
    const llm = scriptedLlm([{ content: 'first' }, { content: 'second' }]);
    const h = harness(llm, []);
    const summary = await runAgentLoop({ ctx: h.ctx, pipeline: createPipeline([follow('a', 'also do A'), follow('b', 'also do B')]), maxIterations: 5, append: h.append, replaceMessages: h.replace });
    expect(summary.iterations).toBe(2);
    expect(llm.requests[1].messages.slice(-2)).toEqual([{ role: 'user', content: 'also do A' }, { role: 'user', content: 'also do B' }]);
  });

  it('retries plain tool errors up to maxAttempts, never cancel errors, and snoozes without using an attempt', async () => {
    let flaky = 0;
    let snoozy = 0;
    let cancelled = 0;
    const tools = [
      { ...testTool('flaky', 'read', async () => { if (++flaky < 3) throw new Error('transient'); return 'finally'; }), maxAttempts: 3 },
      { ...testTool('snoozy', 'read', async () => { if (++snoozy < 3) throw new ToolError('busy', 'snooze', 1); return 'awake'; }), maxAttempts: 1 },
      { ...testTool('cancelled', 'read', async () => { cancelled++; throw new ToolError('invalid input', 'cancel'); }), maxAttempts: 5 },
    ];
    const llm = scriptedLlm([{ tool_calls: [call('f', 'flaky'), call('s', 'snoozy'), call('c', 'cancelled')] }, { content: 'ok' }]);
    const h = harness(llm, tools);
    await runAgentLoop({ ctx: h.ctx, pipeline: createPipeline([h.toolHook]), maxIterations: 5, append: h.append, replaceMessages: h.replace });
    const results = h.state.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual(['finally', 'awake', 'Error: invalid input']);
    expect([flaky, snoozy, cancelled]).toEqual([3, 3, 1]);
  });

  it('ends with an error summary, not a rejection, when the model call fails', async () => {
    const h = harness(scriptedLlm([() => { throw new Error('cannot reach http://127.0.0.1:1/v1'); }]), []);
    const summary = await runAgentLoop({ ctx: h.ctx, pipeline: createPipeline([]), maxIterations: 5, append: h.append, replaceMessages: h.replace });
    expect(summary).toMatchObject({ stop_reason: 'error', error: 'cannot reach http://127.0.0.1:1/v1' });
  });

  it('applies an after_turn mutate on a tool turn after the results, so every tool message follows its call', async () => {
    const mutator: Hook = {
      name: 'mutator',
      source: 'user',
      afterTurn: async (_c, info) => (info.turn === 1 ? { mutate: [{ role: 'user', content: 'mutated history' }] } : {}),
    };
    const llm = scriptedLlm([{ tool_calls: [call('c1', 'echo'), call('c2', 'echo')] }, { content: 'done' }]);
    const h = harness(llm, [testTool('echo', 'read', async () => 'echoed')]);
    const summary = await runAgentLoop({ ctx: h.ctx, pipeline: createPipeline([h.toolHook, mutator]), maxIterations: 5, append: h.append, replaceMessages: h.replace });
    expect(summary.stop_reason).toBe('completed');
    expect(h.state.messages.map((m) => [m.role, m.tool_call_id ?? m.content])).toEqual([
      ['user', 'mutated history'],
      ['assistant', ''],
      ['tool', 'c1'],
      ['tool', 'c2'],
      ['assistant', 'done'],
    ]);
    expect(() => validate(h.state.messages)).not.toThrow();
    // The next request to the model is the mutated history followed by the whole tool turn.
    expect(() => validate(llm.requests[1].messages)).not.toThrow();
    expect(llm.requests[1].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
  });

  it.each([
    ['empty messages', []],
    ['an orphan tool message', [{ role: 'tool' as const, content: 'x', tool_call_id: 'nope', name: 'echo' }]],
  ])('refuses a mutate with %s and reports it; the model never sees it', async (_name, mutate) => {
    const mutator: Hook = { name: 'mutator', source: 'user', onAgentStop: async () => ({ mutate }) };
    let asked = false;
    const again: Hook = { name: 'again', source: 'user', onAgentStop: async () => (asked ? {} : ((asked = true), { follow_up_messages: ['again'] })) };
    const llm = scriptedLlm([{ content: 'first' }, { content: 'second' }]);
    const h = harness(llm, []);
    await runAgentLoop({ ctx: h.ctx, pipeline: createPipeline([mutator, again]), maxIterations: 5, append: h.append, replaceMessages: h.replace });
    expect(llm.requests).toHaveLength(2);
    for (const r of llm.requests) expect(() => validate(r.messages)).not.toThrow();
    expect(h.state.messages[0]).toEqual({ role: 'user', content: 'go' });
    const failures = h.events.filter((e) => e.event === 'on_hook_end').map((e) => (e.data as { hook: string; reason: string }).reason);
    expect(failures[0]).toMatch(/^mutate refused: /);
  });

  it('never sends an invalid chain: the run ends with an error naming the problem', async () => {
    const orphan: Hook = {
      name: 'orphan',
      source: 'plugin',
      modifyRequest: async (_c, req) => ({ ...req, messages: [...req.messages, { role: 'tool', content: 'x', tool_call_id: 'ghost', name: 'echo' }] }),
    };
    const llm = scriptedLlm([{ content: 'never' }]);
    const h = harness(llm, []);
    const summary = await runAgentLoop({ ctx: h.ctx, pipeline: createPipeline([orphan]), maxIterations: 2, append: h.append, replaceMessages: h.replace });
    expect(llm.requests).toHaveLength(0);
    expect(summary.stop_reason).toBe('error');
    expect(summary.error).toMatch(/^invalid conversation, not sent to the model: message 1: tool message answers no open call/);
  });

  it('checks a request anew when a modify_request hook replaced a message the last round sent', async () => {
    let round = 0;
    // Round 3 swaps the first tool call's assistant message, checked in round 2, for one without calls.
    const swap: Hook = {
      name: 'swap',
      source: 'plugin',
      modifyRequest: async (_c, req) =>
        ++round < 3 ? req : { ...req, messages: req.messages.map((m, i) => (i === 1 ? { role: 'assistant', content: 'no calls' } : m)) },
    };
    const llm = scriptedLlm([{ tool_calls: [call('c1', 'read_it')] }, { tool_calls: [call('c2', 'read_it')] }, { content: 'never' }]);
    const h = harness(llm, [testTool('read_it', 'read', async () => 'r')]);
    const summary = await runAgentLoop({ ctx: h.ctx, pipeline: createPipeline([h.toolHook, swap]), maxIterations: 4, append: h.append, replaceMessages: h.replace });
    expect(llm.requests).toHaveLength(2);
    expect(summary.stop_reason).toBe('error');
    expect(summary.error).toMatch(/^invalid conversation, not sent to the model: message 2: tool message answers no open call/);
  });

  it('offers the tools the request lists and refuses a call to any other', async () => {
    let ran = false;
    const only: Hook = { name: 'only', source: 'builtin', modifyRequest: async (_c, req) => ({ ...req, tools: req.tools.filter((t) => t.name === 'read_it') }) };
    const llm = scriptedLlm([{ tool_calls: [call('x', 'run_it')] }, { content: 'ok' }]);
    const h = harness(llm, [testTool('read_it', 'read', async () => 'r'), testTool('run_it', 'execute', async () => ((ran = true), 'ran'))]);
    await runAgentLoop({ ctx: h.ctx, pipeline: createPipeline([h.toolHook, only]), maxIterations: 5, append: h.append, replaceMessages: h.replace });
    expect(llm.requests[0].tools.map((t) => t.name)).toEqual(['read_it']);
    expect(ran).toBe(false);
    expect(h.state.messages.find((m) => m.role === 'tool')?.content).toBe('Error: unknown tool "run_it". Available tools: read_it');
  });

  it('sends the request params and the system blocks hooks add', async () => {
    const hook: Hook = {
      name: 'params',
      source: 'builtin',
      modifyRequest: async (_c, req) => ({ ...req, system: [...req.system, 'be brief'], params: { ...req.params, temperature: 0.2 } }),
    };
    const llm = scriptedLlm([{ content: 'ok' }]);
    const h = harness(llm, []);
    const seen: string[][] = [];
    await runAgentLoop({ ctx: h.ctx, pipeline: createPipeline([hook]), maxIterations: 1, append: h.append, replaceMessages: h.replace, params: { max_tokens: 50 }, onRequest: (r) => seen.push(r.system) });
    expect(llm.requests[0]).toMatchObject({ system: ['be brief'], params: { max_tokens: 50, temperature: 0.2 } });
    expect(seen).toEqual([['be brief']]);
  });

  it('asks the hook that owns compaction to compact on callback "compact"', async () => {
    const compacted: number[] = [];
    const asker: Hook = { name: 'asker', source: 'user', afterTurn: async () => ({ callback: 'compact' }) };
    const owner: Hook = { name: 'owner', source: 'builtin', compactThread: async (c) => void compacted.push(c.state.messages.length) };
    const h = harness(scriptedLlm([{ content: 'done' }]), []);
    await runAgentLoop({ ctx: h.ctx, pipeline: createPipeline([asker, owner]), maxIterations: 2, append: h.append, replaceMessages: h.replace });
    expect(compacted).toEqual([2]);
  });
});

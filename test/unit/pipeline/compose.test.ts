import { describe, expect, it } from 'vitest';
import { composeModelCall, composeToolCall, runModifyRequest } from '../../../src/main/pipeline/compose.ts';
import type { Hook, RunContext } from '../../../src/main/pipeline/hook.ts';
import type { LlmResponse } from '../../../src/main/llm/types.ts';
import type { Message } from '../../../src/shared/types/index.ts';

const ctx = {} as RunContext;
const answer = (content: string): LlmResponse => ({ content, tool_calls: [] });

function tracer(name: string, log: string[]): Hook {
  return {
    name,
    source: 'builtin',
    async wrapModelCall(_ctx, msgs, next) {
      log.push(`${name}>`);
      const r = await next(msgs);
      log.push(`<${name}`);
      return r;
    },
  };
}

describe('onion composition', () => {
  it('makes the first hook the outermost ring', async () => {
    const log: string[] = [];
    const failures: string[] = [];
    const fn = composeModelCall([tracer('a', log), tracer('b', log), tracer('c', log)], ctx, async () => {
      log.push('llm');
      return answer('x');
    }, (h) => failures.push(h.name));
    await fn([]);
    expect(log).toEqual(['a>', 'b>', 'c>', 'llm', '<c', '<b', '<a']);
    expect(failures).toEqual([]);
  });

  it('isolates a hook that throws before calling next and reports it', async () => {
    const failures: string[] = [];
    const broken: Hook = { name: 'broken', source: 'plugin', wrapModelCall: async () => { throw new Error('bug'); } };
    const log: string[] = [];
    const fn = composeModelCall([tracer('outer', log), broken], ctx, async () => answer('ok'), (h, phase, err) => failures.push(`${h.name}:${phase}:${(err as Error).message}`));
    expect((await fn([])).content).toBe('ok');
    expect(failures).toEqual(['broken:wrap_model_call:bug']);
    expect(log).toEqual(['outer>', '<outer']);
  });

  it('propagates errors of the inner chain without blaming the hook', async () => {
    const failures: string[] = [];
    const fn = composeModelCall([tracer('t', [])], ctx, async () => { throw new Error('model down'); }, (h) => failures.push(h.name));
    await expect(fn([])).rejects.toThrow('model down');
    expect(failures).toEqual([]);
  });

  it('propagates aborts thrown by a hook', async () => {
    const aborting: Hook = {
      name: 'aborting',
      source: 'builtin',
      wrapToolCall: async () => { const e = new Error('stop'); e.name = 'AbortError'; throw e; },
    };
    const fn = composeToolCall([aborting], ctx, async (c) => ({ tool_call_id: c.id, name: c.name, output: 'x', status: 'ok' }), () => undefined);
    await expect(fn({ id: '1', name: 'ls', args: {} })).rejects.toThrow('stop');
  });

  it('lets a tool ring rewrite the call and the result', async () => {
    const rewrite: Hook = {
      name: 'rewrite',
      source: 'builtin',
      async wrapToolCall(_ctx, call, next) {
        const r = await next({ ...call, args: { path: 'b.txt' } });
        return { ...r, output: r.output.toUpperCase() };
      },
    };
    const fn = composeToolCall([rewrite], ctx, async (c) => ({ tool_call_id: c.id, name: c.name, output: `read ${String(c.args.path)}`, status: 'ok' }), () => undefined);
    expect((await fn({ id: '1', name: 'read_file', args: { path: 'a.txt' } })).output).toBe('READ B.TXT');
  });

  it('runs modify_request hooks in order and skips a failing one', async () => {
    const add = (name: string, text: string): Hook => ({
      name,
      source: 'builtin',
      modifyRequest: async (_c, msgs) => [...msgs, { role: 'system', content: text } as Message],
    });
    const failing: Hook = { name: 'f', source: 'builtin', modifyRequest: async () => { throw new Error('x'); } };
    const failures: string[] = [];
    const out = await runModifyRequest([add('skills', 'catalog'), failing, add('memory', 'memory')], ctx, [], (h) => failures.push(h.name));
    expect(out.map((m) => m.content)).toEqual(['catalog', 'memory']);
    expect(failures).toEqual(['f']);
  });
});

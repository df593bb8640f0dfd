import { describe, expect, it } from 'vitest';
import type { Hook, RunContext } from '../../../src/main/pipeline/hook.ts';
import { createPipeline } from '../../../src/main/pipeline/run-phase.ts';
import type { LlmResponse } from '../../../src/main/llm/types.ts';
import type { StreamEvent } from '../../../src/shared/types/index.ts';
import { requestOf } from '../../helpers/model-request.ts';

const answer = (content: string): LlmResponse => ({ content, tool_calls: [] });
const abortError = () => Object.assign(new Error('stop'), { name: 'AbortError' });

function context() {
  const events: StreamEvent[] = [];
  const traced: Array<{ name: string; attrs: Record<string, unknown> }> = [];
  const controller = new AbortController();
  const ctx = {
    signal: controller.signal,
    emit: (e: StreamEvent) => events.push(e),
    trace: {
      recordEvent: (name: string, attrs: Record<string, unknown>) => traced.push({ name, attrs }),
    },
  } as unknown as RunContext;
  /** The failures the user sees on the hooks stream, as `hook:phase:reason:ok`. */
  const failures = () =>
    events
      .filter((e) => e.event === 'on_hook_end')
      .map((e) => {
        const d = e.data as { hook: string; event: string; reason: string; ok: boolean };
        return `${d.hook}:${d.event}:${d.reason}:${d.ok}`;
      });
  return { ctx, events, traced, controller, failures };
}

function tracer(name: string, log: string[]): Hook {
  return {
    name,
    source: 'builtin',
    async wrapModelCall(_ctx, req, next) {
      log.push(`${name}>`);
      const r = await next(req);
      log.push(`<${name}`);
      return r;
    },
  };
}

const req = requestOf([{ role: 'user', content: 'hi' }]);

describe('onion phases', () => {
  it('make the first hook the outermost ring', async () => {
    const log: string[] = [];
    const { ctx, failures } = context();
    const call = createPipeline([tracer('a', log), tracer('b', log), tracer('c', log)]).modelCall(
      ctx,
      async () => {
        log.push('llm');
        return answer('x');
      },
    );
    await call(req);
    expect(log).toEqual(['a>', 'b>', 'c>', 'llm', '<c', '<b', '<a']);
    expect(failures()).toEqual([]);
  });

  it('skip a hook that throws before calling next, and report it on the trace and the hooks stream', async () => {
    const broken: Hook = {
      name: 'broken',
      source: 'plugin',
      wrapModelCall: async () => {
        throw new Error('bug');
      },
    };
    const log: string[] = [];
    const { ctx, failures, traced } = context();
    const call = createPipeline([tracer('outer', log), broken]).modelCall(ctx, async () =>
      answer('ok'),
    );
    expect((await call(req)).content).toBe('ok');
    expect(failures()).toEqual(['broken:wrap_model_call:bug:false']);
    expect(traced).toEqual([
      { name: 'hook_error', attrs: { hook: 'broken', phase: 'wrap_model_call', message: 'bug' } },
    ]);
    expect(log).toEqual(['outer>', '<outer']);
  });

  it('propagate errors of the inner chain without blaming the hook', async () => {
    const { ctx, failures } = context();
    const call = createPipeline([tracer('t', [])]).modelCall(ctx, async () => {
      throw new Error('model down');
    });
    await expect(call(req)).rejects.toThrow('model down');
    expect(failures()).toEqual([]);
  });

  it('propagate aborts thrown by a hook', async () => {
    const aborting: Hook = {
      name: 'aborting',
      source: 'builtin',
      wrapToolCall: async () => {
        throw abortError();
      },
    };
    const { ctx } = context();
    const call = createPipeline([aborting]).toolCall(ctx, async (c) => ({
      tool_call_id: c.id,
      name: c.name,
      output: 'x', status: 'ok',
    }));
    await expect(call({ id: '1', name: 'ls', args: {} })).rejects.toThrow('stop');
  });

  it('let a tool ring rewrite the call and the result', async () => {
    const rewrite: Hook = {
      name: 'rewrite',
      source: 'builtin',
      async wrapToolCall(_ctx, call, next) {
        const r = await next({ ...call, args: { path: 'b.txt' } });
        return { ...r, output: r.output.toUpperCase() };
      },
    };
    const { ctx } = context();
    const call = createPipeline([rewrite]).toolCall(ctx, async (c) => ({
      tool_call_id: c.id,
      name: c.name,
      output: `read ${String(c.args.path)}`, status: 'ok',
    }));
    expect((await call({ id: '1', name: 'read_file', args: { path: 'a.txt' } })).output).toBe(
      'READ B.TXT',
    );
  });

  it('block a tool call when a fail-closed ring fails', async () => {
    let ran = false;
    const guard: Hook = {
      name: 'guard',
      source: 'user',
      failMode: 'closed',
      wrapToolCall: async () => {
        throw new Error('crashed');
      },
    };
    const { ctx, failures } = context();
    const call = createPipeline([guard]).toolCall(ctx, async (c) => {
      ran = true;
      return { tool_call_id: c.id, name: c.name, output: 'x', status: 'ok' };
    });
    const result = await call({ id: '1', name: 'execute', args: {} });
    expect(ran).toBe(false);
    expect(result.error).toBe('blocked by hook guard: hook failed (fail-closed): crashed');
    expect(failures()).toEqual(['guard:wrap_tool_call:crashed:false']);
  });
});

describe('sequential phases', () => {
  it('modify_request runs hooks in order, each on the previous output, and skips a failing one', async () => {
    const add = (name: string, text: string): Hook => ({
      name,
      source: 'builtin',
      modifyRequest: async (_c, r) => ({ ...r, system: [...r.system, text] }),
    });
    const failing: Hook = {
      name: 'f',
      source: 'builtin',
      modifyRequest: async () => {
        throw new Error('x');
      },
    };
    const { ctx, failures } = context();
    const out = await createPipeline([
      add('skills', 'catalog'),
      failing,
      add('memory', 'memory'),
    ]).modifyRequest(ctx, req);
    expect(out.system).toEqual(['catalog', 'memory']);
    expect(failures()).toEqual(['f:modify_request:x:false']);
  });

  it('user_message_send: a throwing hook is reported and does not end the run; the first block wins', async () => {
    const seen: string[] = [];
    const hook = (
      name: string,
      out: () => Promise<{ blocked: boolean; reason?: string; additional_context?: string }>,
    ): Hook => ({
      name,
      source: 'user',
      onUserMessage: async () => {
        seen.push(name);
        return out();
      },
    });
    const { ctx, failures } = context();
    const open = await createPipeline([
      hook('crashes', async () => {
        throw new Error('boom');
      }),
      hook('adds', async () => ({ blocked: false, additional_context: 'ctx' })),
    ]).userMessage(ctx, 'hi');
    expect(open).toEqual({ context: ['ctx'] });
    expect(failures()).toEqual(['crashes:user_message_send:boom:false']);

    seen.length = 0;
    const denied = await createPipeline([
      hook('blocks', async () => ({ blocked: true, reason: 'no' })),
      hook('later', async () => ({ blocked: true, reason: 'also no' })),
    ]).userMessage(ctx, 'hi');
    expect(denied.blocked).toEqual({ by: 'blocks', reason: 'no' });
    expect(seen).toEqual(['blocks']);
  });

  it('user_message_send: a fail-closed hook that fails blocks the message', async () => {
    const closed: Hook = {
      name: 'strict',
      source: 'user',
      failMode: 'closed',
      onUserMessage: async () => {
        throw new Error('down');
      },
    };
    const { ctx } = context();
    expect((await createPipeline([closed]).userMessage(ctx, 'hi')).blocked).toEqual({
      by: 'strict',
      reason: 'hook failed (fail-closed): down',
    });
  });

  it('compact: a failing onCompact reaches the hooks stream; the first veto wins', async () => {
    const later: string[] = [];
    const { ctx, failures } = context();
    const pipeline = createPipeline([
      {
        name: 'crashes',
        source: 'user',
        onCompact: async () => {
          throw new Error('nope');
        },
      },
      {
        name: 'vetoes',
        source: 'user',
        onCompact: async (_c, n) =>
          n.phase === 'pre' ? { blocked: true, reason: 'keep it all' } : {},
      },
      { name: 'late', source: 'user', onCompact: async () => void later.push('late') },
    ]);
    expect(await pipeline.compact(ctx, { phase: 'pre', trigger: 'auto' })).toEqual({
      blocked: true,
      reason: 'keep it all',
    });
    expect(later).toEqual([]);
    expect(failures()).toEqual(['crashes:compact:nope:false']);
    expect(await pipeline.compact(ctx, { phase: 'post', trigger: 'auto', summary: 's' })).toEqual({
      blocked: false,
    });
    expect(later).toEqual(['late']);
  });

  it('after_agent runs after a cancel; other phases stop with it', async () => {
    const ran: string[] = [];
    const hook: Hook = {
      name: 'h',
      source: 'user',
      beforeAgent: async () => void ran.push('before'),
      afterAgent: async () => void ran.push('after'),
    };
    const { ctx, controller } = context();
    controller.abort();
    const pipeline = createPipeline([hook]);
    await expect(pipeline.beforeAgent(ctx)).rejects.toThrow();
    await pipeline.afterAgent(ctx, { stop_reason: 'cancelled' });
    expect(ran).toEqual(['after']);
  });

  it('after_turn refuses a mutate that is not a valid conversation and reports it as the hook’s failure', async () => {
    const { ctx, failures } = context();
    const pipeline = createPipeline([
      { name: 'empties', source: 'user', afterTurn: async () => ({ mutate: [] }) },
      {
        name: 'orphans',
        source: 'user',
        afterTurn: async () => ({
          mutate: [{ role: 'tool', content: 'x', tool_call_id: 'zz', name: 'ls' }],
        }),
      },
    ]);
    expect(await pipeline.afterTurn(ctx, { turn: 1, response: answer('x') })).toEqual({});
    expect(failures()).toEqual([
      'empties:after_turn:mutate refused: the new history has no messages:false',
      expect.stringMatching(
        /^orphans:after_turn:mutate refused: message 0: tool message answers no open call/,
      ),
    ]);
  });
});

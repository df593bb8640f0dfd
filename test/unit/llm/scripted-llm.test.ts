import { describe, expect, it } from 'vitest';
import { createScriptedLlm } from '../../helpers/scripted-llm.ts';
import type { ModelRequest } from '../../../src/main/llm/types.ts';

const req: ModelRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [], system: [], params: {} };
const opts = () => ({ signal: new AbortController().signal });

describe('createScriptedLlm', () => {
  it('answers turns in order, records calls and checks completion', async () => {
    const llm = createScriptedLlm([
      {
        toolCalls: [
          { id: 'c1', name: 'read_file', args: { path: 'a' } },
          { name: 'bad', rawArgs: '{x' },
        ],
      },
      (r) => ({ text: `seen ${r.messages.length}`, usage: { input_tokens: 1, output_tokens: 2 } }),
    ]);
    const first = await llm.chat(req, opts());
    expect(first.tool_calls[0]).toEqual({
      id: 'c1',
      name: 'read_file',
      args: { path: 'a' },
      raw_args: '{"path":"a"}',
    });
    expect(Object.values(first.invalid_args!)).toHaveLength(1);
    expect(() => llm.assertComplete()).toThrow(/1 scripted turn/);
    const deltas: string[] = [];
    const second = await llm.chat(req, { ...opts(), onDelta: (t) => deltas.push(t) });
    expect(second).toMatchObject({
      content: 'seen 1',
      finish_reason: 'stop',
      usage: { input_tokens: 1, output_tokens: 2 },
    });
    expect(deltas).toEqual(['seen 1']);
    expect(llm.calls.map((c) => c.index)).toEqual([0, 1]);
    llm.assertComplete();
    await expect(llm.chat(req, opts())).rejects.toThrow(/no scripted turn left for call #2/);
  });

  it('supports interrupted and throw turns and aborts', async () => {
    const boom = new Error('boom');
    const llm = createScriptedLlm([
      { text: 'part', interrupted: 'reset', toolCalls: [{ name: 'x' }] },
      { throw: boom },
    ]);
    expect(await llm.chat(req, opts())).toEqual({
      content: 'part',
      tool_calls: [],
      interrupted: true,
      error: 'reset',
    });
    await expect(llm.chat(req, opts())).rejects.toBe(boom);
    const ctrl = new AbortController();
    ctrl.abort();
    await expect(llm.chat(req, { signal: ctrl.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});

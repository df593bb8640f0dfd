import { describe, expect, it } from 'vitest';
import { createStreamAccumulator } from '../../../src/main/llm/stream-accumulator.ts';
import type { ChunkLike } from '../../../src/main/llm/stream-accumulator.ts';
import { parseToolArgs } from '../../../src/main/llm/tool-args.ts';

const tc = (index: number, extra: { id?: string; name?: string; args?: string }): ChunkLike => ({
  choices: [
    {
      delta: {
        tool_calls: [
          {
            index,
            ...(extra.id ? { id: extra.id } : {}),
            function: { name: extra.name, arguments: extra.args },
          },
        ],
      },
    },
  ],
});

describe('createStreamAccumulator', () => {
  it('concatenates text and returns each delta', () => {
    const acc = createStreamAccumulator();
    expect(acc.push({ choices: [{ delta: { role: 'assistant', content: '' } as never }] })).toBe(
      '',
    );
    expect(acc.push({ choices: [{ delta: { content: 'Hel' } }] })).toBe('Hel');
    expect(acc.push({ choices: [{ delta: { content: 'lo' }, finish_reason: 'stop' }] })).toBe('lo');
    expect(acc.finished).toBe(true);
    expect(acc.finish()).toEqual({ content: 'Hello', tool_calls: [], finish_reason: 'stop' });
  });

  it('assembles interleaved tool-call deltas by index', () => {
    const acc = createStreamAccumulator();
    acc.push(tc(1, { id: 'b', name: 'list_dir', args: '' }));
    acc.push(tc(0, { id: 'a', name: 'read_file', args: '{"pa' }));
    acc.push(tc(1, { args: '{"path":' }));
    acc.push(tc(0, { args: 'th":"x.ts"}' }));
    acc.push(tc(1, { args: '"."}' }));
    acc.push({ choices: [{ delta: {}, finish_reason: 'tool_calls' }] });
    const res = acc.finish();
    expect(res.tool_calls).toEqual([
      { id: 'a', name: 'read_file', args: { path: 'x.ts' }, raw_args: '{"path":"x.ts"}' },
      { id: 'b', name: 'list_dir', args: { path: '.' }, raw_args: '{"path":"."}' },
    ]);
    expect(res.finish_reason).toBe('tool_calls');
  });

  it('ignores repeated names and tolerates choices: [] and missing delta', () => {
    const acc = createStreamAccumulator();
    acc.push(tc(0, { id: 'a', name: 'noop' }));
    acc.push(tc(0, { name: 'noop', args: '{}' }));
    acc.push({ choices: [] });
    acc.push({ choices: [{ finish_reason: 'tool_calls' }] });
    expect(acc.finish().tool_calls).toEqual([{ id: 'a', name: 'noop', args: {}, raw_args: '{}' }]);
  });

  it('generates an id when the server sends none', () => {
    const acc = createStreamAccumulator();
    acc.push(tc(0, { name: 'noop', args: '' }));
    const [call] = acc.finish().tool_calls;
    expect(call!.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(call!.args).toEqual({});
  });

  it('marks malformed and non-object arguments invalid, keeping raw_args', () => {
    const acc = createStreamAccumulator();
    acc.push(tc(0, { id: 'a', name: 'w', args: '{"path": "a",}' }));
    acc.push(tc(1, { id: 'b', name: 'w', args: '[]' }));
    acc.push(tc(2, { id: 'c', name: 'w', args: '"foo"' }));
    acc.push(tc(3, { id: 'd', name: 'w', args: '{"ok":true}' }));
    const res = acc.finish();
    expect(res.tool_calls.map((c) => c.args)).toEqual([{}, {}, {}, { ok: true }]);
    expect(res.tool_calls[0]!.raw_args).toBe('{"path": "a",}');
    expect(Object.keys(res.invalid_args!)).toEqual(['a', 'b', 'c']);
    expect(res.invalid_args!.a).toMatch(/not valid JSON/);
    expect(res.invalid_args!.b).toBe('arguments must be a JSON object, got an array');
    expect(res.invalid_args!.c).toBe('arguments must be a JSON object, got string');
  });

  it('maps usage and keeps unreported fields absent', () => {
    const acc = createStreamAccumulator();
    acc.push({ choices: [{ delta: { content: 'x' }, finish_reason: 'stop' }] });
    acc.push({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 3 } });
    expect(acc.finish().usage).toEqual({ input_tokens: 12, output_tokens: 3 });
    const none = createStreamAccumulator();
    none.push({ choices: [], usage: { prompt_tokens: 5 } });
    expect(none.finish().usage).toEqual({ input_tokens: 5 });
  });

  it('interrupt keeps the text and drops every tool call', () => {
    const acc = createStreamAccumulator();
    acc.push({ choices: [{ delta: { content: 'Let me' } }] });
    acc.push(tc(0, { id: 'a', name: 'read_file', args: '{"path":"src/ind' }));
    expect(acc.finished).toBe(false);
    expect(acc.interrupt('connection lost')).toEqual({
      content: 'Let me',
      tool_calls: [],
      interrupted: true,
      error: 'connection lost',
    });
  });
});

describe('parseToolArgs', () => {
  it('treats empty and whitespace arguments as {}', () => {
    expect(parseToolArgs('')).toEqual({ ok: true, args: {} });
    expect(parseToolArgs('  \n')).toEqual({ ok: true, args: {} });
  });
  it('rejects null and numbers', () => {
    expect(parseToolArgs('null')).toEqual({
      ok: false,
      error: 'arguments must be a JSON object, got null',
    });
    expect(parseToolArgs('3')).toEqual({
      ok: false,
      error: 'arguments must be a JSON object, got number',
    });
  });
});

describe('createStreamAccumulator edge cases', () => {
  it('treats a new id at a known index as a new call', () => {
    const acc = createStreamAccumulator();
    acc.push(tc(0, { id: 'a', name: 'one', args: '{}' }));
    acc.push(tc(0, { id: 'b', name: 'two', args: '{"x":1}' }));
    acc.push({ choices: [{ finish_reason: 'tool_calls' }] });
    expect(acc.finish().tool_calls.map((c) => [c.id, c.name, c.args])).toEqual([
      ['a', 'one', {}],
      ['b', 'two', { x: 1 }],
    ]);
  });

  it('renames and refuses a duplicate call id', () => {
    const acc = createStreamAccumulator();
    acc.push(tc(0, { id: 'same', name: 'one', args: '{}' }));
    acc.push(tc(1, { id: 'same', name: 'two', args: '{}' }));
    const res = acc.finish();
    expect(res.tool_calls[0]!.id).toBe('same');
    const second = res.tool_calls[1]!.id;
    expect(second).not.toBe('same');
    expect(res.invalid_args).toEqual({
      [second]: expect.stringMatching(/duplicate tool call id 'same'/),
    });
  });

  it("finish_reason 'length' with an open tool call is interrupted, not executed", () => {
    const acc = createStreamAccumulator();
    acc.push({ choices: [{ delta: { content: 'Writing' } }] });
    acc.push(tc(0, { id: 'a', name: 'write_file', args: '{"path":"a","content":"lo' }));
    acc.push({ choices: [{ finish_reason: 'length' }] });
    const res = acc.finish();
    expect(res).toMatchObject({ content: 'Writing', tool_calls: [], interrupted: true });
    expect(res.error).toMatch(/max tokens/);
  });
});

import { describe, expect, it } from 'vitest';
import { prettyPrint, validate, validateUserInput } from '../../../src/main/agent/messages.ts';
import { estimateTextTokens, estimateTokens } from '../../../src/main/agent/tokens.ts';
import type { Message } from '../../../src/shared/types/index.ts';

describe('messages chain', () => {
  it('builds a conversation that validates and prints in the chain format', () => {
    const chain: Message[] = [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'What is 2+2?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_1', name: 'calculate', args: { expr: '2+2' } }],
      },
      { role: 'tool', content: '4', tool_call_id: 'call_1', name: 'calculate' },
      { role: 'assistant', content: '2+2 = 4' },
    ];
    expect(() => validate(chain)).not.toThrow();
    expect(prettyPrint(chain)).toContain('[Tool: calculate (call_id=call_1)]\n4');
    expect(prettyPrint(chain)).toContain(
      '  → tool_call: calculate(id=call_1, args={"expr":"2+2"})',
    );
  });

  it.each<[string, Message[], RegExp]>([
    ['unknown role', [{ role: 'robot' as never, content: 'x' }], /unknown role "robot"/],
    ['tool without call id', [{ role: 'tool', content: 'x', name: 'ls' }], /tool_call_id and name/],
    ['empty assistant', [{ role: 'assistant', content: '' }], /content or tool_calls/],
    [
      'tool call without id',
      [{ role: 'assistant', content: '', tool_calls: [{ id: '', name: 'ls', args: {} }] }],
      /id and name/,
    ],
    ['empty user', [{ role: 'user', content: '   ' }], /user message needs content/],
    ['empty system', [{ role: 'system', content: '' }], /system message needs content/],
  ])('validate rejects %s', (_name, msgs, error) => {
    expect(() => validate(msgs)).toThrow(error);
  });

  it('validateUserInput only accepts non-empty user and system messages', () => {
    expect(() =>
      validateUserInput([
        { role: 'user', content: 'hi' },
        { role: 'system', content: 'be brief' },
      ]),
    ).not.toThrow();
    expect(() => validateUserInput([])).toThrow(/no messages/);
    expect(() => validateUserInput([{ role: 'assistant', content: 'I am the model' }])).toThrow(
      /role "assistant" is not allowed/,
    );
    expect(() =>
      validateUserInput([{ role: 'tool', content: 'x', tool_call_id: 'c', name: 'ls' }]),
    ).toThrow(/role "tool" is not allowed/);
    expect(() => validateUserInput([{ role: 'user', content: '' }])).toThrow(/non-empty/);
  });

  it('estimates tokens as len/4 per message, including raw tool arguments', () => {
    const raw = '{"path":"' + 'a'.repeat(30) + '"}';
    const msgs: Message[] = [
      { role: 'user', content: 'x'.repeat(40) },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c', name: 'read_file', args: {}, raw_args: raw }],
      },
    ];
    expect(estimateTokens(msgs)).toBe(10 + Math.ceil(raw.length / 4));
    expect(estimateTextTokens('x'.repeat(9))).toBe(3);
    expect(
      estimateTokens([
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'c', name: 'ls', args: { path: '.' } }],
        },
      ]),
    ).toBe(Math.ceil(JSON.stringify({ path: '.' }).length / 4));
    expect(prettyPrint([{ role: 'user', content: 'q' }])).toBe('[Human]\nq\n');
  });
});

describe('validate on a chain checked before', () => {
  const turn = (id: string): Message[] => [
    { role: 'assistant', content: '', tool_calls: [{ id, name: 'read_file', args: {} }] },
    { role: 'tool', content: 'ok', tool_call_id: id, name: 'read_file' },
  ];

  it('still finds a bad message that replaced a checked one, or one appended after them', () => {
    const msgs: Message[] = [{ role: 'user', content: 'go' }, ...turn('c1'), ...turn('c2')];
    validate(msgs);
    // Edited in place (same array, same first message): the call of c1 is gone, its result is orphaned.
    msgs.splice(1, 1, { role: 'assistant', content: 'no calls' });
    expect(() => validate(msgs)).toThrow(/message 2: tool message answers no open call/);
    msgs.splice(1, 1, turn('c1')[0]);
    validate(msgs);
    msgs.push({ role: 'tool', content: 'again', tool_call_id: 'c2', name: 'read_file' });
    expect(() => validate(msgs)).toThrow(/message 5: tool message answers no open call/);
  });

  it('carries the calls still open at the end of the checked part into the next round', () => {
    const msgs: Message[] = [{ role: 'user', content: 'go' }, turn('c1')[0]];
    validate(msgs, { openLastTurn: true });
    expect(() => validate(msgs)).toThrow(/message 1: tool call c1 has no result before message 2/);
    msgs.push({ role: 'user', content: 'skipped the result' });
    expect(() => validate(msgs)).toThrow(/message 1: tool call c1 has no result before message 2/);
    msgs.splice(2, 1, turn('c1')[1], { role: 'user', content: 'next' });
    validate(msgs);
  });
});

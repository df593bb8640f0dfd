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

import { describe, expect, it } from 'vitest';
import { ai, human, prettyPrint, system, toolMsg, validate, validateUserInput } from '../../../src/main/agent/messages.ts';
import { estimateTextTokens, estimateTokens } from '../../../src/main/agent/tokens.ts';
import type { Message } from '../../../src/shared/types/index.ts';

describe('messages chain', () => {
  it('builds a conversation that validates and prints in the chain format', () => {
    const chain = [
      system('You are helpful.'),
      human('What is 2+2?'),
      ai('', { id: 'call_1', name: 'calculate', args: { expr: '2+2' } }),
      toolMsg('call_1', 'calculate', '4'),
      ai('2+2 = 4'),
    ];
    expect(() => validate(chain)).not.toThrow();
    expect(prettyPrint(chain)).toContain('[Tool: calculate (call_id=call_1)]\n4');
    expect(prettyPrint(chain)).toContain('  → tool_call: calculate(id=call_1, args={"expr":"2+2"})');
  });

  it.each<[string, Message[], RegExp]>([
    ['unknown role', [{ role: 'robot' as never, content: 'x' }], /unknown role "robot"/],
    ['tool without call id', [{ role: 'tool', content: 'x', name: 'ls' }], /tool_call_id and name/],
    ['empty assistant', [{ role: 'assistant', content: '' }], /content or tool_calls/],
    ['tool call without id', [{ role: 'assistant', content: '', tool_calls: [{ id: '', name: 'ls', args: {} }] }], /id and name/],
    ['empty user', [{ role: 'user', content: '   ' }], /user message needs content/],
    ['empty system', [{ role: 'system', content: '' }], /system message needs content/],
  ])('validate rejects %s', (_name, msgs, error) => {
    expect(() => validate(msgs)).toThrow(error);
  });

  it('validateUserInput only accepts non-empty user and system messages', () => {
    expect(() => validateUserInput([human('hi'), system('be brief')])).not.toThrow();
    expect(() => validateUserInput([])).toThrow(/no messages/);
    expect(() => validateUserInput([ai('I am the model')])).toThrow(/role "assistant" is not allowed/);
    expect(() => validateUserInput([toolMsg('c', 'ls', 'x')])).toThrow(/role "tool" is not allowed/);
    expect(() => validateUserInput([human('')])).toThrow(/non-empty/);
  });

  it('estimates tokens as len/4 per message, including raw tool arguments', () => {
    const raw = '{"path":"' + 'a'.repeat(30) + '"}';
    const msgs: Message[] = [human('x'.repeat(40)), { role: 'assistant', content: '', tool_calls: [{ id: 'c', name: 'read_file', args: {}, raw_args: raw }] }];
    expect(estimateTokens(msgs)).toBe(10 + Math.ceil(raw.length / 4));
    expect(estimateTextTokens('x'.repeat(9))).toBe(3);
    expect(estimateTokens([ai('', { id: 'c', name: 'ls', args: { path: '.' } })])).toBe(Math.ceil(JSON.stringify({ path: '.' }).length / 4));
    expect(prettyPrint([human('q')])).toBe('[Human]\nq\n');
  });
});

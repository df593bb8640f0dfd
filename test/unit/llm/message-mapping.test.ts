import { describe, expect, it } from 'vitest';
import { toOpenAiMessages, toOpenAiTools } from '../../../src/main/llm/message-mapping.ts';
import type { Message } from '../../../src/shared/types/index.ts';

describe('toOpenAiMessages', () => {
  it('maps every role and drops our extra fields', () => {
    const messages: Message[] = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'read a.ts', name: 'alice' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'c1', name: 'read_file', args: { path: 'a.ts' }, raw_args: '{"path": "a.ts"}' },
          { id: 'c2', name: 'list_dir', args: { path: '.' } },
        ],
      },
      { role: 'tool', content: 'file text', tool_call_id: 'c1', name: 'read_file' },
      { role: 'tool', content: 'a.ts', tool_call_id: 'c2', name: 'list_dir' },
      { role: 'assistant', content: 'partial answ', interrupted: true },
    ];
    expect(toOpenAiMessages(messages)).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'read a.ts' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path": "a.ts"}' },
          },
          { id: 'c2', type: 'function', function: { name: 'list_dir', arguments: '{"path":"."}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'file text' },
      { role: 'tool', tool_call_id: 'c2', content: 'a.ts' },
      { role: 'assistant', content: 'partial answ' },
    ]);
  });

  it('keeps assistant text next to tool calls', () => {
    const [m] = toOpenAiMessages([
      { role: 'assistant', content: 'Looking.', tool_calls: [{ id: 'x', name: 'noop', args: {} }] },
    ]);
    expect(m).toMatchObject({ role: 'assistant', content: 'Looking.' });
  });
});

describe('toOpenAiTools', () => {
  it('wraps schemas as function tools and is undefined when empty', () => {
    expect(toOpenAiTools([])).toBeUndefined();
    expect(
      toOpenAiTools([{ name: 'read_file', description: 'Read', parameters: { type: 'object' } }]),
    ).toEqual([
      {
        type: 'function',
        function: { name: 'read_file', description: 'Read', parameters: { type: 'object' } },
      },
    ]);
  });
});

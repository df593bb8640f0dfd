/** The request body built from cached message JSON is the JSON of the whole request. */
import { describe, expect, it } from 'vitest';
import { requestMessages, toOpenAiTools } from '../../../src/main/llm/message-mapping.ts';
import { requestBody } from '../../../src/main/llm/request-body.ts';
import type { ModelRequest } from '../../../src/main/llm/types.ts';
import type { Message } from '../../../src/shared/types/index.ts';

const messages: Message[] = [
  { role: 'user', content: 'read a.ts' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [
      { id: 'c1', name: 'read_file', args: { path: 'a.ts' }, raw_args: '{"path":"a.ts"}' },
    ],
  },
  { role: 'tool', content: '1\tconst a = "\\u00e9";', tool_call_id: 'c1', name: 'read_file' },
];
const tools = [
  {
    name: 'read_file',
    description: 'Reads a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
];
const request = (msgs: Message[], params: ModelRequest['params'] = {}): ModelRequest => ({
  model: 'm',
  system: ['You help.'],
  messages: msgs,
  tools,
  params,
});

describe('requestBody', () => {
  it('is the JSON of the whole request, round after round as the thread grows', () => {
    const first = request(messages, { temperature: 0.2, stop: ['x'] });
    expect(JSON.parse(requestBody(first))).toEqual({
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      stop: ['x'],
      messages: requestMessages(first),
      tools: toOpenAiTools(tools),
    });
    const grown = request([...messages, { role: 'assistant', content: 'done' }]);
    const body = JSON.parse(requestBody(grown));
    expect(body.messages).toEqual(requestMessages(grown));
    expect(body).not.toHaveProperty('temperature');
  });

  it('leaves out tools and the system message when there are none', () => {
    const body = JSON.parse(
      requestBody({ model: 'm', system: [], messages, tools: [], params: {} }),
    );
    expect(body.messages).toEqual(requestMessages({ system: [], messages }));
    expect(body).not.toHaveProperty('tools');
  });
});

/** The request body built from cached message JSON is the JSON of the whole request. */
import { describe, expect, it } from 'vitest';
import { requestMessages, toOpenAiTools } from '../../../src/main/llm/message-mapping.ts';
import { requestBody, requestBodyChunks } from '../../../src/main/llm/request-body.ts';
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

  it('serializes a message once however many rounds send it', () => {
    const reads = new Map<string, number>();
    let counting = false;
    /** A user message that counts how often the request body reads its text. */
    const counted = (text: string): Message => {
      const m = { role: 'user' } as Message;
      Object.defineProperty(m, 'content', {
        enumerable: true,
        get: () => (counting && reads.set(text, (reads.get(text) ?? 0) + 1), text),
      });
      return m;
    };
    const body = (msgs: Message[]) => {
      counting = true;
      const text = requestBody(request(msgs));
      counting = false;
      return JSON.parse(text);
    };
    const thread: Message[] = [counted('one'), { role: 'assistant', content: 'a' }];
    body(thread);
    const afterFirst = reads.get('one');
    for (let round = 0; round < 3; round++) {
      thread.push(counted(`q${round}`), { role: 'assistant', content: `a${round}` });
      expect(body(thread).messages).toEqual(requestMessages(request(thread)));
    }
    expect(afterFirst).toBeGreaterThan(0);
    expect(reads.get('one')).toBe(afterFirst);
    expect(reads.get('q0')).toBe(afterFirst);
  });

  it('is the JSON of the request after the thread is edited, rewound, forked or compacted', () => {
    const say = (i: number): Message => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` });
    const thread = Array.from({ length: 12 }, (_, i) => say(i));
    const other = Array.from({ length: 5 }, (_, i) => say(100 + i));
    const same = (msgs: Message[]) =>
      expect(JSON.parse(requestBody(request(msgs))).messages).toEqual(
        requestMessages(request(msgs)),
      );
    same(thread);
    thread.splice(4, 1, { role: 'user', content: 'edited' });
    same(thread);
    same(thread.slice(0, 6));
    same(thread);
    same([...thread.slice(0, 8), { role: 'user', content: 'forked' }]);
    same(other);
    same([{ role: 'user', content: 'summary' }, ...thread.slice(9)]);
    thread.push(say(12));
    same(thread);
    same(thread.slice(0, 1));
  });

  it('leaves a body built earlier intact when later rounds grow, edit or rewind its thread', () => {
    // A body may still be on its way to the server (a big one over a slow link) when the next one
    // is built: another thread forked from the same messages, or the same thread pruned.
    const say = (i: number): Message => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}é` });
    const thread = Array.from({ length: 40 }, (_, i) => say(i));
    const bodies = [
      thread,
      [...thread, say(40)],
      [...thread.slice(0, 10), say(99), ...thread.slice(11)],
      thread.slice(0, 5),
      [...thread.slice(0, 5), say(98)],
    ].map((msgs) => ({ msgs, chunks: requestBodyChunks(request(msgs)) }));
    for (const { msgs, chunks } of bodies)
      expect(JSON.parse(Buffer.concat(chunks).toString('utf8')).messages).toEqual(
        requestMessages(request(msgs)),
      );
  });
});

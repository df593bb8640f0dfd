import { describe, expect, it } from 'vitest';
import { createOpenAiClient } from '../../../src/main/llm/openai-client.ts';
import type { OpenAiClientOptions } from '../../../src/main/llm/openai-client.ts';
import { LlmError } from '../../../src/main/llm/types.ts';
import type { ModelRequest } from '../../../src/main/llm/types.ts';
import { closedPort } from '../../helpers/ports.ts';
import { withFakeOpenAi } from '../../helpers/fake-openai-server.ts';

const KEY = 'sk-test-canary-1234567890';
const req: ModelRequest = {
  model: 'fake-model',
  system: [],
  params: {},
  messages: [{ role: 'user', content: 'hello' }],
  tools: [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object' } }],
};

function client(baseURL: string, extra: Partial<OpenAiClientOptions> = {}) {
  return createOpenAiClient({ apiKey: KEY, baseURL, retryBaseMs: 5, retryCapMs: 20, ...extra });
}

function signal() {
  return new AbortController().signal;
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('createOpenAiClient against the fake server', () => {
  it('streams text deltas and reports usage and finish reason', async () => {
    await withFakeOpenAi(
      [{ text: 'Hello there, world!', chunkSize: 5, usage: { input_tokens: 7, output_tokens: 4 } }],
      async (fake) => {
        const deltas: string[] = [];
        let firsts = 0;
        const res = await client(fake.baseURL).chat(req, {
          signal: signal(),
          onDelta: (t) => deltas.push(t),
          onFirstChunk: () => firsts++,
        });
        expect(res.content).toBe('Hello there, world!');
        expect(deltas).toEqual(['Hello', ' ther', 'e, wo', 'rld!']);
        expect(firsts).toBe(1);
        expect(res.usage).toEqual({ input_tokens: 7, output_tokens: 4 });
        expect(res.finish_reason).toBe('stop');
        expect(res.tool_calls).toEqual([]);
        const body = fake.chatRequests()[0]!;
        expect(body.stream).toBe(true);
        expect(body.stream_options).toEqual({ include_usage: true });
        expect(body.tools).toEqual([
          {
            type: 'function',
            function: {
              name: 'read_file',
              description: 'Read a file',
              parameters: { type: 'object' },
            },
          },
        ]);
        expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
      },
    );
  });

  it('sends the system blocks as one leading system message and the params in the body', async () => {
    await withFakeOpenAi([{ text: 'x' }], async (fake) => {
      const withAll = { ...req, system: ['You are terse.', 'Memory: tabs.'], params: { temperature: 0.3, max_tokens: 99 } };
      await client(fake.baseURL).chat(withAll, { signal: signal() });
      const body = fake.chatRequests()[0]!;
      expect(body.messages).toEqual([
        { role: 'system', content: 'You are terse.\n\nMemory: tabs.' },
        { role: 'user', content: 'hello' },
      ]);
      expect(body).toMatchObject({ temperature: 0.3, max_tokens: 99 });
      await client(fake.baseURL).chat(req, { signal: signal() });
      const plain = fake.chatRequests()[1]!;
      expect(plain.messages).toEqual([{ role: 'user', content: 'hello' }]);
      expect('temperature' in plain || 'max_tokens' in plain).toBe(false);
    });
  });

  it('omits tools when there are none', async () => {
    await withFakeOpenAi([{ text: 'x' }], async (fake) => {
      await client(fake.baseURL).chat({ ...req, tools: [] }, { signal: signal() });
      expect('tools' in fake.chatRequests()[0]!).toBe(false);
    });
  });

  it('assembles parallel tool calls streamed in fragments', async () => {
    const turn = {
      text: 'Reading both.',
      toolCalls: [
        { id: 'call_a', name: 'read_file', args: { path: 'src/index.ts' } },
        { id: 'call_b', name: 'list_dir', args: { path: '.', depth: 2 } },
        { id: 'call_c', name: 'noop', rawArgs: '' },
      ],
    };
    await withFakeOpenAi([turn], async (fake) => {
      const res = await client(fake.baseURL).chat(req, { signal: signal() });
      expect(res.tool_calls).toEqual([
        {
          id: 'call_a',
          name: 'read_file',
          args: { path: 'src/index.ts' },
          raw_args: '{"path":"src/index.ts"}',
        },
        {
          id: 'call_b',
          name: 'list_dir',
          args: { path: '.', depth: 2 },
          raw_args: '{"path":".","depth":2}',
        },
        { id: 'call_c', name: 'noop', args: {}, raw_args: '' },
      ]);
      expect(res.finish_reason).toBe('tool_calls');
      expect(res.invalid_args).toBeUndefined();
    });
  });

  it('assembles interleaved parallel calls and generates missing ids', async () => {
    const turn = {
      interleaveToolCalls: true,
      toolCalls: [
        { name: 'read_file', args: { path: 'a.ts' }, omitId: true },
        { id: 'call_2', name: 'read_file', args: { path: 'b.ts' } },
      ],
    };
    await withFakeOpenAi([turn], async (fake) => {
      const res = await client(fake.baseURL).chat(req, { signal: signal() });
      expect(res.tool_calls.map((c) => c.args)).toEqual([{ path: 'a.ts' }, { path: 'b.ts' }]);
      expect(res.tool_calls[0]!.id).toMatch(/^call_[0-9a-f]{24}$/);
      expect(res.tool_calls[1]!.id).toBe('call_2');
    });
  });

  it("finish_reason 'length' during a tool call is interrupted", async () => {
    const turn = {
      toolCalls: [{ name: 'write_file', rawArgs: '{"path":"a","content":"abc' }],
      finishReason: 'length',
    };
    await withFakeOpenAi([turn], async (fake) => {
      const res = await client(fake.baseURL).chat(req, { signal: signal() });
      expect(res).toMatchObject({ tool_calls: [], interrupted: true });
      expect(res.error).toMatch(/max tokens/);
    });
  });

  it('reports malformed tool arguments instead of guessing', async () => {
    await withFakeOpenAi(
      [{ toolCalls: [{ id: 'c1', name: 'write_file', rawArgs: "{'path': 'a'," }] }],
      async (fake) => {
        const res = await client(fake.baseURL).chat(req, { signal: signal() });
        expect(res.tool_calls[0]).toMatchObject({ id: 'c1', args: {}, raw_args: "{'path': 'a'," });
        expect(res.invalid_args?.c1).toMatch(/not valid JSON/);
      },
    );
  });

  it('retries a 429 honouring retry-after-ms, then succeeds', async () => {
    await withFakeOpenAi(
      [{ error: { status: 429, retryAfterMs: 40 } }, { text: 'after wait' }],
      async (fake) => {
        const retries: Array<[number, number, string]> = [];
        const res = await client(fake.baseURL).chat(req, {
          signal: signal(),
          onRetry: (n, d, why) => retries.push([n, d, why]),
        });
        expect(res.content).toBe('after wait');
        expect(fake.chatRequests()).toHaveLength(2);
        expect(retries).toHaveLength(1);
        expect(retries[0]![0]).toBe(1);
        expect(retries[0]![1]).toBe(40);
        expect(retries[0]![2]).toMatch(/429/);
      },
    );
  });

  it('honours Retry-After in seconds', async () => {
    await withFakeOpenAi(
      [{ error: { status: 429, retryAfter: 1 } }, { text: 'ok' }],
      async (fake) => {
        const delays: number[] = [];
        await client(fake.baseURL).chat(req, {
          signal: signal(),
          onRetry: (_n, d) => delays.push(d),
        });
        expect(delays).toEqual([1000]);
        expect(fake.chatRequests()).toHaveLength(2);
      },
    );
  });

  it('gives up after maxRetries 5xx with server_error', async () => {
    const err500 = { error: { status: 500 } };
    await withFakeOpenAi([err500, err500, err500], async (fake) => {
      const retries: number[] = [];
      const err = await rejection(
        client(fake.baseURL, { maxRetries: 2 }).chat(req, {
          signal: signal(),
          onRetry: (n) => retries.push(n),
        }),
      );
      expect(err).toBeInstanceOf(LlmError);
      expect((err as LlmError).code).toBe('server_error');
      expect((err as LlmError).status).toBe(500);
      expect(retries).toEqual([1, 2]);
      expect(fake.chatRequests()).toHaveLength(3);
    });
  });

  it('maps 401 to unauthorized without leaking the key', async () => {
    await withFakeOpenAi({ apiKey: 'sk-the-right-one' }, async (fake) => {
      const err = (await rejection(
        client(fake.baseURL).chat(req, { signal: signal() }),
      )) as LlmError;
      expect(err.code).toBe('unauthorized');
      expect(err.message).toBe('the endpoint rejected the API key (401) — check it in Settings');
      expect(err.message).not.toContain(KEY);
      expect(fake.chatRequests()).toHaveLength(1); // never retried
    });
  });

  it('maps a 404 for the model to model_not_found', async () => {
    await withFakeOpenAi({ models: ['llama3'], strictModels: true }, async (fake) => {
      const err = (await rejection(
        client(fake.baseURL).chat({ ...req, model: 'gpt-9' }, { signal: signal() }),
      )) as LlmError;
      expect(err.code).toBe('model_not_found');
      expect(err.message).toBe(`model 'gpt-9' not found at ${fake.baseURL}`);
    });
  });

  it('maps 400 to bad_request with the server message', async () => {
    const body = { error: { message: 'context length exceeded', type: 'invalid_request_error' } };
    await withFakeOpenAi([{ error: { status: 400, body } }], async (fake) => {
      const err = (await rejection(
        client(fake.baseURL).chat(req, { signal: signal() }),
      )) as LlmError;
      expect(err.code).toBe('bad_request');
      expect(err.message).toContain('context length exceeded');
    });
  });

  it('reports a closed port as unreachable', async () => {
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
    const retries: number[] = [];
    const err = (await rejection(
      client(baseURL, { maxRetries: 1 }).chat(req, {
        signal: signal(),
        onRetry: (n) => retries.push(n),
      }),
    )) as LlmError;
    expect(err).toBeInstanceOf(LlmError);
    expect(err.code).toBe('unreachable');
    expect(err.message).toBe(`cannot reach ${baseURL}: connection refused`);
    expect(retries).toEqual([1]);
  });

  it('a stream broken mid-tool-call resolves interrupted with no tool calls', async () => {
    const turn = {
      text: 'Let me look',
      toolCalls: [{ name: 'read_file', args: { path: 'src/index.ts' } }],
      breakAfterChunks: 4,
    };
    await withFakeOpenAi([turn], async (fake) => {
      const res = await client(fake.baseURL).chat(req, { signal: signal() });
      expect(res.interrupted).toBe(true);
      expect(res.tool_calls).toEqual([]);
      expect(res.content).toBe('Let me look');
      expect(res.error).toMatch(/connection was lost mid-stream|ended before/);
      expect(fake.chatRequests()).toHaveLength(1); // never retried once started
    });
  });

  it('a stalled stream hits the idle timeout and resolves interrupted', async () => {
    await withFakeOpenAi(
      [{ text: 'partial answer', chunkSize: 8, stallAfterChunks: 2 }],
      async (fake) => {
        const res = await client(fake.baseURL, { idleTimeoutMs: 150 }).chat(req, {
          signal: signal(),
        });
        expect(res).toMatchObject({ content: 'partial ', tool_calls: [], interrupted: true });
        expect(res.error).toMatch(/stalled/);
      },
    );
  });

  it('an error event mid-stream resolves interrupted', async () => {
    await withFakeOpenAi([{ text: 'abcdef', chunkSize: 3, errorAfterChunks: 2 }], async (fake) => {
      const res = await client(fake.baseURL).chat(req, { signal: signal() });
      expect(res).toMatchObject({ content: 'abc', interrupted: true, tool_calls: [] });
      expect(res.error).toMatch(/error mid-stream/);
    });
  });

  it('malformed SSE data resolves interrupted', async () => {
    await withFakeOpenAi(
      [{ text: 'abcdef', chunkSize: 3, malformedAfterChunks: 3 }],
      async (fake) => {
        const res = await client(fake.baseURL).chat(req, { signal: signal() });
        expect(res).toMatchObject({ content: 'abcdef', interrupted: true, tool_calls: [] });
        expect(res.error).toMatch(/malformed/);
      },
    );
  });

  it('aborting mid-stream rejects with AbortError promptly', async () => {
    await withFakeOpenAi(
      [{ text: 'x'.repeat(100), chunkSize: 1, stallAfterChunks: 5 }],
      async (fake) => {
        const ctrl = new AbortController();
        const p = client(fake.baseURL).chat(req, {
          signal: ctrl.signal,
          onDelta: () => ctrl.abort(),
        });
        const err = (await rejection(p)) as Error;
        expect(err.name).toBe('AbortError');
      },
    );
  });

  it('aborting during backoff rejects with AbortError', async () => {
    await withFakeOpenAi([{ error: { status: 503, retryAfter: 30 } }], async (fake) => {
      const ctrl = new AbortController();
      const p = client(fake.baseURL).chat(req, {
        signal: ctrl.signal,
        onRetry: () => ctrl.abort(),
      });
      const err = (await rejection(p)) as Error;
      expect(err.name).toBe('AbortError');
      expect(fake.chatRequests()).toHaveLength(1);
    });
  });
});

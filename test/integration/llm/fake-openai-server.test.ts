import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAiClient } from '../../../src/main/llm/openai-client.ts';
import type { ModelRequest } from '../../../src/main/llm/types.ts';
import { startFakeOpenAi, withFakeOpenAi } from '../../helpers/fake-openai-server.ts';

interface SseChunk {
  choices: Array<{
    delta?: { role?: string; tool_calls?: Array<{ function?: { arguments?: string } }> };
    finish_reason?: string | null;
  }>;
  usage?: { completion_tokens: number };
}

const ask = (text: string): ModelRequest => ({
  model: 'fake-model',
  system: [],
  params: {},
  messages: [{ role: 'user', content: text }],
  tools: [],
});
const sig = () => new AbortController().signal;

describe('fake OpenAI server', () => {
  it('answers the default turn, rules, then function turns', async () => {
    await withFakeOpenAi(
      { rules: [{ match: /summari[sz]e/i, turns: [{ text: 'a summary' }, { text: 'second' }] }] },
      async (fake) => {
        const llm = createOpenAiClient({ apiKey: 'sk-test', baseURL: fake.baseURL });
        expect((await llm.chat(ask('hello'), { signal: sig() })).content).toBe('ok');
        expect((await llm.chat(ask('please summarize this'), { signal: sig() })).content).toBe(
          'a summary',
        );
        expect((await llm.chat(ask('anything'), { signal: sig() })).content).toBe('second');
        fake.push((r) => ({ text: `you said ${r.messages.at(-1)?.content as string}` }));
        expect((await llm.chat(ask('ping'), { signal: sig() })).content).toBe('you said ping');
        expect(fake.remaining()).toBe(0);
      },
    );
  });

  it('serves non-streaming requests and rejects unknown paths', async () => {
    await withFakeOpenAi(
      [{ text: 'plain', toolCalls: [{ id: 'c', name: 'x', args: { a: 1 } }] }],
      async (fake) => {
        const res = await fetch(`${fake.baseURL}/chat/completions`, {
          method: 'POST',
          body: JSON.stringify({ model: 'm', messages: [] }),
        });
        const body = (await res.json()) as {
          choices: Array<{ message: { content: string; tool_calls: unknown[] } }>;
        };
        expect(body.choices[0]!.message.content).toBe('plain');
        expect(body.choices[0]!.message.tool_calls).toEqual([
          { id: 'c', type: 'function', function: { name: 'x', arguments: '{"a":1}' } },
        ]);
        expect(
          (await fetch(`http://127.0.0.1:${fake.port}/chat/completions`, { method: 'POST' }))
            .status,
        ).toBe(404);
      },
    );
  });

  it('streams proper SSE: role first, usage chunk with empty choices, [DONE]', async () => {
    await withFakeOpenAi(
      [{ text: 'hi', toolCalls: [{ id: 'c', name: 'x', args: { p: 'abcdef' } }] }],
      async (fake) => {
        const res = await fetch(`${fake.baseURL}/chat/completions`, {
          method: 'POST',
          body: JSON.stringify({
            model: 'm',
            messages: [],
            stream: true,
            stream_options: { include_usage: true },
          }),
        });
        expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
        const events = (await res.text()).split('\n\n').filter(Boolean);
        expect(events.at(-1)).toBe('data: [DONE]');
        const chunks = events
          .slice(0, -1)
          .map((e) => JSON.parse(e.replace(/^data: /, '')) as SseChunk);
        expect(chunks[0]!.choices[0]!.delta?.role).toBe('assistant');
        expect(chunks.at(-1)!.choices).toEqual([]);
        expect(chunks.at(-1)!.usage!.completion_tokens).toBeGreaterThan(0);
        const fragments = chunks.filter(
          (c) => c.choices[0]?.delta?.tool_calls?.[0]?.function?.arguments,
        );
        expect(fragments.length).toBeGreaterThanOrEqual(3);
        expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('tool_calls');
      },
    );
  });

  it('control endpoints replace the script, list requests and reset', async () => {
    const fake = await startFakeOpenAi();
    try {
      const base = `http://127.0.0.1:${fake.port}`;
      const set = await fetch(`${base}/__control/script`, {
        method: 'POST',
        body: JSON.stringify({
          script: [{ text: 'scripted' }],
          rules: [{ match: 'deploy', turns: [{ text: 'rule hit' }] }],
          models: ['z'],
        }),
      });
      expect(await set.json()).toEqual({ ok: true, queued: 1, rules: 1 });
      const llm = createOpenAiClient({ apiKey: 'sk-test', baseURL: fake.baseURL });
      expect((await llm.chat(ask('x'), { signal: sig() })).content).toBe('scripted');
      expect((await llm.chat(ask('please DEPLOY'), { signal: sig() })).content).toBe('rule hit');
      const logged = (await (await fetch(`${base}/__control/requests`)).json()) as Array<{
        path: string;
        body: { messages: unknown[] };
      }>;
      expect(logged.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
      expect(logged[1]!.body.messages).toEqual([{ role: 'user', content: 'please DEPLOY' }]);
      expect(
        ((await (await fetch(`${fake.baseURL}/models`)).json()) as { data: Array<{ id: string }> })
          .data[0]!.id,
      ).toBe('z');
      await fetch(`${base}/__control/reset`, { method: 'POST' });
      expect(fake.requests).toHaveLength(0);
      expect((await llm.chat(ask('please deploy'), { signal: sig() })).content).toBe('ok');
    } finally {
      await fake.close();
    }
  });

  it('close() does not hang on a stalled stream', async () => {
    const fake = await startFakeOpenAi({ script: [{ text: 'abc', stallAfterChunks: 1 }] });
    const res = await fetch(`${fake.baseURL}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [], stream: true }),
    });
    expect(res.status).toBe(200);
    await fake.close();
    await expect(res.text()).rejects.toThrow();
  });

  it('the CLI prints its URL and serves a script file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-openai-'));
    const file = join(dir, 'script.json');
    writeFileSync(file, JSON.stringify({ script: [{ text: 'from file' }], models: ['cli-model'] }));
    const child = spawn(process.execPath, ['test/helpers/fake-openai-cli.ts', '--script', file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let out = '';
      while (!/FAKE_OPENAI_URL=\S+\n/.test(out)) {
        const [data] = (await once(child.stdout!, 'data')) as [Buffer];
        out += data.toString();
      }
      const url = /FAKE_OPENAI_URL=(\S+)/.exec(out)![1]!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const llm = createOpenAiClient({ apiKey: 'sk-test', baseURL: url });
      expect((await llm.chat(ask('x'), { signal: sig() })).content).toBe('from file');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

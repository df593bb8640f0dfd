import { describe, expect, it } from 'vitest';
import {
  listModels,
  probeLocalProviders,
  testConnection,
} from '../../../src/main/llm/providers.ts';
import { LlmError } from '../../../src/main/llm/types.ts';
import { closedPort } from '../../helpers/ports.ts';
import { withFakeOpenAi } from '../../helpers/fake-openai-server.ts';

describe('providers against the fake server', () => {
  it('listModels returns sorted ids and sends the key', async () => {
    await withFakeOpenAi({ models: ['qwen', 'llama3'], apiKey: 'sk-k' }, async (fake) => {
      expect(await listModels({ baseURL: fake.baseURL, apiKey: 'sk-k' })).toEqual([
        'llama3',
        'qwen',
      ]);
      // Without /v1: normalised, still works.
      expect(
        await listModels({ baseURL: `http://127.0.0.1:${fake.port}/`, apiKey: 'sk-k' }),
      ).toHaveLength(2);
    });
  });

  it('listModels rejects 401 with a clear line', async () => {
    await withFakeOpenAi({ apiKey: 'sk-right' }, async (fake) => {
      const err = await listModels({ baseURL: fake.baseURL, apiKey: 'sk-wrong-secret' }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(LlmError);
      expect((err as LlmError).code).toBe('unauthorized');
      expect((err as LlmError).message).not.toContain('sk-wrong-secret');
    });
  });

  it('testConnection reports the model count', async () => {
    await withFakeOpenAi({ models: ['a', 'b', 'c'] }, async (fake) => {
      const res = await testConnection({ baseURL: fake.baseURL });
      expect(res).toMatchObject({
        ok: true,
        models: 3,
        message: `Connected to ${fake.baseURL} — 3 models available.`,
      });
    });
  });

  it('testConnection explains a closed port in plain language', async () => {
    const port = await closedPort();
    const res = await testConnection({ baseURL: `http://127.0.0.1:${port}/v1` });
    expect(res).toEqual({
      ok: false,
      message: `Nothing is listening at http://127.0.0.1:${port} — is the server running?`,
    });
  });

  it('probeLocalProviders reports which endpoints answer', async () => {
    const port = await closedPort();
    await withFakeOpenAi({ models: ['m1'] }, async (fake) => {
      const res = await probeLocalProviders({
        timeoutMs: 2000,
        targets: [
          { id: 'ollama', label: 'Ollama', baseURL: fake.baseURL },
          { id: 'lmstudio', label: 'LM Studio', baseURL: `http://127.0.0.1:${port}/v1` },
        ],
      });
      expect(res).toEqual([
        { id: 'ollama', label: 'Ollama', baseURL: fake.baseURL, ok: true, models: ['m1'] },
        { id: 'lmstudio', label: 'LM Studio', baseURL: `http://127.0.0.1:${port}/v1`, ok: false },
      ]);
    });
  });
});

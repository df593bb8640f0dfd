import { describe, expect, it } from 'vitest';
import { getPreset, normalizeBaseUrl, PROVIDER_PRESETS } from '../../../src/main/llm/providers.ts';

describe('normalizeBaseUrl', () => {
  it.each([
    ['http://127.0.0.1:11434/v1/', 'http://127.0.0.1:11434/v1'],
    ['  http://127.0.0.1:11434  ', 'http://127.0.0.1:11434/v1'],
    ['localhost:1234', 'http://localhost:1234/v1'],
    ['https://api.openai.com', 'https://api.openai.com/v1'],
    ['https://openrouter.ai', 'https://openrouter.ai/api/v1'],
    ['http://host:8000/v1/chat/completions', 'http://host:8000/v1'],
    ['https://example.com/openai/v1///', 'https://example.com/openai/v1'],
    ['', ''],
  ])('%s → %s', (input, expected) => {
    expect(normalizeBaseUrl(input)).toBe(expected);
  });
});

describe('presets', () => {
  it('has the documented endpoints', () => {
    expect(getPreset('ollama').baseURL).toBe('http://127.0.0.1:11434/v1');
    expect(getPreset('lmstudio').baseURL).toBe('http://127.0.0.1:1234/v1');
    expect(PROVIDER_PRESETS.map((p) => p.id)).toEqual([
      'openai',
      'ollama',
      'lmstudio',
      'vllm',
      'llamacpp',
      'openrouter',
      'custom',
    ]);
    for (const p of PROVIDER_PRESETS)
      if (p.baseURL) expect(normalizeBaseUrl(p.baseURL)).toBe(p.baseURL);
  });
});

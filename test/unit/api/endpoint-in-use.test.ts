import { describe, expect, it } from 'vitest';
import { endpointInUse, withModelCheck } from '../../../src/main/api/endpoint-in-use.ts';

const connected = (ids: string[]) =>
  ({
    ok: true,
    models: ids.length,
    modelIds: ids,
    message: `Connected: ${ids.length} models.`,
  }) as const;

describe('endpointInUse', () => {
  it('tests the environment override, not the field, and says so', () => {
    const e = endpointInUse(
      { baseURL: 'http://field/v1', model: 'a' },
      { baseURL: 'http://env/v1' },
    );
    expect(e).toEqual({ baseURL: 'http://env/v1', model: 'a', fromEnvironment: true });
    const r = withModelCheck(connected(['a']), e);
    expect(r).toMatchObject({ ok: true, baseURL: 'http://env/v1', fromEnvironment: true });
    expect(r.message).toContain('OPENAI_BASE_URL');
  });

  it('uses the field when nothing overrides it', () => {
    expect(endpointInUse({ baseURL: 'http://field/v1' }, undefined)).toEqual({
      baseURL: 'http://field/v1',
      model: undefined,
      fromEnvironment: false,
    });
  });
});

describe('withModelCheck', () => {
  const e = { baseURL: 'http://x/v1', model: 'gpt-x', fromEnvironment: false };
  it('fails a connection whose list lacks the chosen model, naming it', () => {
    const r = withModelCheck(connected(['llama', 'qwen']), e);
    expect(r.ok).toBe(false);
    expect(r.message).toContain('"gpt-x" is not on its list of 2 models');
    expect(r.modelIds).toEqual(['llama', 'qwen']);
  });

  it('passes when the model is listed, or when the endpoint lists none', () => {
    expect(withModelCheck(connected(['gpt-x']), e).ok).toBe(true);
    expect(withModelCheck(connected([]), e).ok).toBe(true);
  });

  it('keeps a failed connection failed', () => {
    expect(withModelCheck({ ok: false, message: 'refused' }, e)).toMatchObject({
      ok: false,
      message: 'refused',
    });
  });
});

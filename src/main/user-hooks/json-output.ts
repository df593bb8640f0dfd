/** Strict reading of a hook's stdout: one JSON object or nothing; log lines around it, two objects or an array count as a failure, never as a partial answer. */
import { errorMessage } from '../errors.ts';

export type HookJson =
  | { kind: 'empty' }
  | { kind: 'object'; value: Record<string, unknown> }
  | { kind: 'invalid'; error: string };

/**
 * Parses stdout as a single JSON object; a UTF-8 BOM and surrounding whitespace are tolerated.
 * Contract: arrays, strings, numbers, trailing log lines and two objects are all 'invalid'.
 */
export function parseHookJson(stdout: string): HookJson {
  const text = stdout.replace(/^\uFEFF/, '').trim();
  if (text === '') return { kind: 'empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { kind: 'invalid', error: `invalid JSON: ${errorMessage(err)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { kind: 'invalid', error: `expected a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}` };
  }
  return { kind: 'object', value: value as Record<string, unknown> };
}

export const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

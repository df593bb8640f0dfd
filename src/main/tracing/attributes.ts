/**
 * Attribute hygiene: caps on sizes (the store and the UI must stay small) and the list of content
 * attributes that exports drop unless the user opted into content capture.
 */
import type { AttributeValue } from '../../shared/types/index.ts';

/** Longest string kept on any attribute (tool args and hook payloads hit this; previews are shorter). */
export const MAX_ATTRIBUTE_CHARS = 4096;
/** Length of message/output previews: their first 500 characters. */
export const PREVIEW_CHARS = 500;
/** Most items kept in a string[] attribute. */
export const MAX_ARRAY_ITEMS = 256;

/** Cuts `text` to at most `max` chars, ending with `…` when cut, never splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** Normalises a value for storage: caps strings/arrays, drops undefined and non-finite numbers. */
export function cleanAttribute(value: AttributeValue | undefined): AttributeValue | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return truncate(value, MAX_ATTRIBUTE_CHARS);
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.slice(0, MAX_ARRAY_ITEMS).map((v) => truncate(String(v), PREVIEW_CHARS));
  return truncate(String(value), MAX_ATTRIBUTE_CHARS);
}

/** JSON of `value`, capped at MAX_ATTRIBUTE_CHARS; never throws (cycles, BigInt → a placeholder). */
export function jsonPreview(value: unknown, max = MAX_ATTRIBUTE_CHARS): string {
  try {
    return truncate(JSON.stringify(value) ?? 'undefined', max);
  } catch {
    return '[unserializable]';
  }
}

const CONTENT_KEYS = new Set([
  'workbench.output.preview',
  'workbench.input.preview',
  'output_preview',
  'tool_args',
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.system_instructions',
  'gen_ai.tool.definitions',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
  'input.value',
  'output.value',
]);

/**
 * True for attributes that may carry user content (messages, args, outputs, hook payloads and
 * stdout/stderr). Contract: exports drop these unless content capture is on.
 */
export function isContentAttribute(key: string): boolean {
  if (CONTENT_KEYS.has(key)) return true;
  return /(^|[._])(preview|payload|stdout|stderr|stdin|args|arguments|content|prompt|messages)$/.test(key);
}

/** A copy of `attrs` without content attributes (or `attrs` itself when capture is on). */
export function redactAttributes<T>(attrs: Record<string, T>, captureContent: boolean): Record<string, T> {
  if (captureContent) return attrs;
  const out: Record<string, T> = {};
  for (const [k, v] of Object.entries(attrs)) if (!isContentAttribute(k)) out[k] = v;
  return out;
}

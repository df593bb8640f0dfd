/** Strict parsing of a tool call's argument JSON (no partial-JSON salvage: a bad call must not run). */
import { errorMessage } from '../errors.ts';

/** The outcome of parsing one call's arguments. */
export type ParsedArgs = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/**
 * Parses tool-call arguments.
 * Contract: `""` (or whitespace) → `{}` (no-parameter tools); anything that is not a JSON object →
 * `ok: false` with a message the model can act on.
 */
export function parseToolArgs(raw: string): ParsedArgs {
  if (raw.trim() === '') return { ok: true, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    const why = errorMessage(err);
    return { ok: false, error: `arguments are not valid JSON: ${why}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
    return { ok: false, error: `arguments must be a JSON object, got ${kind}` };
  }
  return { ok: true, args: value as Record<string, unknown> };
}

/** A fresh call id for servers that omit one (`call_` + 24 random hex chars). */
export function generateCallId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return 'call_' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Redaction of the secrets this process holds (the provider API key) from text the agent produced:
 * tool output before it is stored, shown to hooks or sent to the model, and hook output before it is
 * stored. Process-wide on purpose: a key the process holds must be cut from every output path of it,
 * whichever workbench or face (CLI, serve, Electron) configured it.
 */

/** What a redacted secret is replaced with. */
export const REDACTED = '[REDACTED]';

/** Shorter values are not secrets worth the false positives (`test`, `none`, `not-needed`). */
const MIN_SECRET_LENGTH = 8;

const secrets = new Set<string>();
/** The secrets longest first, so a secret containing another is cut whole; rebuilt when one is added. */
let bySize: string[] = [];
let generation = 0;

/**
 * Adds a value to redact from now on (an API key from the environment, a key store or the settings
 * page). Contract: empty or short values are ignored; a key replaced later stays redacted.
 */
export function registerSecret(value: string | undefined): void {
  const trimmed = value?.trim();
  if (!trimmed || trimmed.length < MIN_SECRET_LENGTH || secrets.has(trimmed)) return;
  secrets.add(trimmed);
  bySize = [...secrets].sort((a, b) => b.length - a.length);
  generation++;
}

/** Changes whenever a secret is added: text redacted under an older generation may hold it. */
export function secretsGeneration(): number {
  return generation;
}

/** `text` with every registered secret replaced by `[REDACTED]`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of bySize) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * What a model span keeps of its request, so the trace can show the prompt: the system
 * instructions and the newest messages that fit the attribute cap, secrets redacted. Both are
 * content attributes (exports drop them unless content capture is on; docs/tracing.md).
 */
import type { AttributeValue, Message } from '../../shared/types/index.ts';
import type { ModelRequest } from '../llm/types.ts';
import { redactSecrets, secretsGeneration } from '../secrets/redaction.ts';
import { MAX_ATTRIBUTE_CHARS, truncate } from './attributes.ts';

/** Longest content kept of one message in the captured request. */
const MESSAGE_CHARS = 1000;

/** One captured message as the trace shows it. */
export interface CapturedMessage {
  role: string;
  content: string;
  tool_calls?: string[];
}

/**
 * Each message's captured JSON, made once: a message object never changes once made (an edit is a
 * new object), so only a new secret (another generation) makes it again.
 */
const capturedJson = new WeakMap<Message, { json: string; generation: number }>();

function captureOf(m: Message): string {
  const generation = secretsGeneration();
  const kept = capturedJson.get(m);
  if (kept?.generation === generation) return kept.json;
  const one: CapturedMessage = {
    role: m.role,
    content: redactSecrets(truncate(m.content, MESSAGE_CHARS)),
    ...(m.tool_calls?.length ? { tool_calls: m.tool_calls.map((c) => c.name) } : {}),
  };
  const json = JSON.stringify(one);
  capturedJson.set(m, { json, generation });
  return json;
}

/** The last system instructions captured: the same text from one request to the next. */
let lastSystem = { joined: '', generation: -1, captured: '' };

function systemOf(system: readonly string[]): string {
  const joined = truncate(system.join('\n\n'), MAX_ATTRIBUTE_CHARS);
  const generation = secretsGeneration();
  if (joined !== lastSystem.joined || generation !== lastSystem.generation)
    lastSystem = { joined, generation, captured: redactSecrets(joined) };
  return lastSystem.captured;
}

/**
 * Attributes describing the request. Contract: walks messages from the newest and stops at the
 * cap, so the cost is bounded however long the thread; `workbench.input.messages_omitted` counts
 * the older ones left out.
 */
export function requestAttributes(req: ModelRequest): Record<string, AttributeValue> {
  const kept: string[] = [];
  let size = 2;
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const json = captureOf(req.messages[i]!);
    const cost = json.length + 1;
    if (size + cost > MAX_ATTRIBUTE_CHARS && kept.length > 0) break;
    kept.push(json);
    size += cost;
  }
  return {
    'gen_ai.system_instructions': systemOf(req.system),
    'gen_ai.input.messages': truncate(`[${kept.reverse().join(',')}]`, MAX_ATTRIBUTE_CHARS),
    'workbench.input.messages_omitted': req.messages.length - kept.length,
  };
}

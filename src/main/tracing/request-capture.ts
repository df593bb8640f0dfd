/**
 * What a model span keeps of its request, so the trace can show the prompt: the system
 * instructions and the newest messages that fit the attribute cap, secrets redacted. Both are
 * content attributes (exports drop them unless content capture is on; docs/tracing.md).
 */
import type { AttributeValue } from '../../shared/types/index.ts';
import type { ModelRequest } from '../llm/types.ts';
import { redactSecrets } from '../secrets/redaction.ts';
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
 * Attributes describing the request. Contract: walks messages from the newest and stops at the
 * cap, so the cost is bounded however long the thread; `workbench.input.messages_omitted` counts
 * the older ones left out.
 */
export function requestAttributes(req: ModelRequest): Record<string, AttributeValue> {
  const kept: CapturedMessage[] = [];
  let size = 2;
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i]!;
    const one: CapturedMessage = {
      role: m.role,
      content: redactSecrets(truncate(m.content, MESSAGE_CHARS)),
      ...(m.tool_calls?.length ? { tool_calls: m.tool_calls.map((c) => c.name) } : {}),
    };
    const cost = JSON.stringify(one).length + 1;
    if (size + cost > MAX_ATTRIBUTE_CHARS && kept.length > 0) break;
    kept.unshift(one);
    size += cost;
  }
  return {
    'gen_ai.system_instructions': redactSecrets(
      truncate(req.system.join('\n\n'), MAX_ATTRIBUTE_CHARS),
    ),
    'gen_ai.input.messages': truncate(JSON.stringify(kept), MAX_ATTRIBUTE_CHARS),
    'workbench.input.messages_omitted': req.messages.length - kept.length,
  };
}

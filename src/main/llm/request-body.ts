/**
 * The JSON body of a chat-completion request, built from pieces serialized once: a thread's messages
 * are immutable once made, so each is turned into OpenAI's JSON the first time it is sent and the
 * text is reused on every later round; each round only joins the pieces (docs/performance.md).
 */
import type { Message } from '../../shared/types/index.ts';
import { systemText, toOpenAiMessages, toOpenAiTools } from './message-mapping.ts';
import type { ModelRequest, ToolSchema } from './types.ts';

const messageJson = new WeakMap<Message, string>();
const toolJson = new WeakMap<ToolSchema, string>();

function cached<K extends object>(cache: WeakMap<K, string>, key: K, make: () => unknown): string {
  let text = cache.get(key);
  if (text === undefined) {
    text = JSON.stringify(make());
    cache.set(key, text);
  }
  return text;
}

/**
 * The request body: the same JSON as serializing `{model, messages, stream, stream_options, tools,
 * temperature, max_tokens, max_completion_tokens, top_p, stop}` at once (messages and tools last).
 * Contract: a message object must not change after it was first sent (none does: they are replaced).
 */
export function requestBody(req: ModelRequest): string {
  const { temperature, max_tokens, max_completion_tokens, top_p, stop } = req.params;
  const head = JSON.stringify({
    model: req.model,
    stream: true,
    stream_options: { include_usage: true },
    temperature,
    max_tokens,
    max_completion_tokens,
    top_p,
    stop: stop?.length ? stop : undefined,
  });
  const system = systemText(req.system);
  const parts = req.messages.map((m) => cached(messageJson, m, () => toOpenAiMessages([m])[0]));
  if (system) parts.unshift(JSON.stringify({ role: 'system', content: system }));
  let body = `${head.slice(0, -1)},"messages":[${parts.join(',')}]`;
  if (req.tools.length > 0)
    body += `,"tools":[${req.tools.map((t) => cached(toolJson, t, () => toOpenAiTools([t])![0])).join(',')}]`;
  return `${body}}`;
}

/**
 * The JSON body of a chat-completion request, built from pieces serialized once: a thread's messages
 * are immutable once made, so each is turned into OpenAI's JSON bytes the first time it is sent, and
 * the joined JSON of a message list is kept (`joined-messages.ts`) so the next round, which sends the
 * same list plus its new messages, only appends those (docs/performance.md).
 */
import type { Message } from '../../shared/types/index.ts';
import { systemText, toOpenAiMessages, toOpenAiTools } from './message-mapping.ts';
import type { ModelRequest, ToolSchema } from './types.ts';
import { joinedMessages } from './joined-messages.ts';

const messageBytes = new WeakMap<Message, Buffer>();
const toolJson = new WeakMap<ToolSchema, string>();

/** The message as OpenAI's JSON, UTF-8 encoded the first time it is sent. */
function bytesOf(m: Message): Buffer {
  let bytes = messageBytes.get(m);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(toOpenAiMessages([m])[0]));
    messageBytes.set(m, bytes);
  }
  return bytes;
}

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
  return Buffer.concat(requestBodyChunks(req)).toString('utf8');
}

/**
 * The same body as UTF-8 chunks, as the transport sends them one after another: a round encodes
 * only its new messages, the system prompt and the small head, and the thread's joined JSON goes
 * out in the segments it is kept in, never copied into one buffer (at 1.4 MB that copy cost ~1 ms
 * a round). Contract: the chunks stay unchanged however many bodies are built later.
 */
export function requestBodyChunks(req: ModelRequest): Buffer[] {
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
  const system = systemBytes(systemText(req.system));
  const messages = joinedMessages(req.messages, bytesOf);
  const chunks = [
    Buffer.from(`${head.slice(0, -1)},"messages":[`),
    system,
    system.length > 0 && messages.length > 0 ? SEPARATOR : EMPTY,
    ...messages,
    toolsBytes(req.tools),
  ];
  return chunks.filter((c) => c.length > 0);
}

const SEPARATOR = Buffer.from(',');
const EMPTY = Buffer.alloc(0);

/** The system message as sent last time, reused while its text is the same (it rarely changes). */
let lastSystem = { text: '', bytes: Buffer.alloc(0) };

function systemBytes(text: string): Buffer {
  if (text !== lastSystem.text)
    lastSystem = {
      text,
      bytes: text
        ? Buffer.from(JSON.stringify({ role: 'system', content: text }))
        : Buffer.alloc(0),
    };
  return lastSystem.bytes;
}

/** `],"tools":[…]}` (or `]}`) for the tools last offered, reused while they are the same objects. */
let lastTools: { tools: readonly ToolSchema[]; bytes: Buffer } = {
  tools: [],
  bytes: Buffer.from(']}'),
};

function toolsBytes(tools: readonly ToolSchema[]): Buffer {
  const same =
    lastTools.tools.length === tools.length && tools.every((t, i) => t === lastTools.tools[i]);
  if (!same) {
    const json = tools.map((t) => cached(toolJson, t, () => toOpenAiTools([t])![0])).join(',');
    lastTools = {
      tools: [...tools],
      bytes: Buffer.from(tools.length ? `],"tools":[${json}]}` : ']}'),
    };
  }
  return lastTools.bytes;
}

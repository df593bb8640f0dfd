/**
 * The JSON body of a chat-completion request, built from pieces serialized once: a thread's messages
 * are immutable once made, so each is turned into OpenAI's JSON the first time it is sent, and the
 * joined JSON of a message list is kept so the next round, which sends the same list plus its new
 * messages, only appends those (docs/performance.md).
 */
import type { Message } from '../../shared/types/index.ts';
import { systemText, toOpenAiMessages, toOpenAiTools } from './message-mapping.ts';
import type { ModelRequest, ToolSchema } from './types.ts';
import { sharedPrefixLength } from '../agent/prefix-sum.ts';

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
 * The joined JSON of the messages last sent in one chain, UTF-8 encoded once: `bytes` holds the text
 * in its first `ends[refs.length]` bytes (with room to grow); `ends[i]` = the length after i messages.
 */
interface Joined {
  refs: Message[];
  bytes: Buffer;
  ends: number[];
}

/** By the chain's first message, so threads run side by side keep their own. */
const joinedChains = new WeakMap<Message, Joined>();

/** The messages' JSON joined by commas, reusing the part of the chain that starts the same way. */
function messagesJson(msgs: readonly Message[]): Buffer {
  if (msgs.length === 0) return Buffer.alloc(0);
  let chain = joinedChains.get(msgs[0]);
  if (!chain) {
    chain = { refs: [], bytes: Buffer.allocUnsafe(16 * 1024), ends: [0] };
    joinedChains.set(msgs[0], chain);
  }
  const { refs, ends } = chain;
  const k = sharedPrefixLength(refs, msgs);
  refs.length = k;
  ends.length = k + 1;
  for (let i = k; i < msgs.length; i++) {
    const m = msgs[i];
    const json = cached(messageJson, m, () => toOpenAiMessages([m])[0]);
    const piece = i === 0 ? json : `,${json}`;
    const at = ends[i];
    const need = at + Buffer.byteLength(piece);
    if (need > chain.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, chain.bytes.length * 2));
      chain.bytes.copy(grown, 0, 0, at);
      chain.bytes = grown;
    }
    chain.bytes.write(piece, at);
    refs.push(m);
    ends.push(need);
  }
  return chain.bytes.subarray(0, ends[msgs.length]);
}

/**
 * The request body: the same JSON as serializing `{model, messages, stream, stream_options, tools,
 * temperature, max_tokens, max_completion_tokens, top_p, stop}` at once (messages and tools last).
 * Contract: a message object must not change after it was first sent (none does: they are replaced).
 */
export function requestBody(req: ModelRequest): string {
  return requestBodyBytes(req).toString('utf8');
}

/**
 * The same body as UTF-8 bytes, as the transport sends it: a round encodes only its new messages,
 * the system prompt and the small head; the rest is copied as bytes.
 */
export function requestBodyBytes(req: ModelRequest): Buffer {
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
  const messages = messagesJson(req.messages);
  const separator = system.length > 0 && messages.length > 0 ? ',' : '';
  return Buffer.concat([
    Buffer.from(`${head.slice(0, -1)},"messages":[`),
    system,
    Buffer.from(separator),
    messages,
    toolsBytes(req.tools),
  ]);
}

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

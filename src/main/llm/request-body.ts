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

/** The joined JSON of the messages last sent in one chain; `ends[i]` = its length after i messages. */
interface Joined {
  refs: Message[];
  text: string;
  ends: number[];
}

/** By the chain's first message, so threads run side by side keep their own. */
const joinedChains = new WeakMap<Message, Joined>();

/** The messages' JSON joined by commas, reusing the part of the chain that starts the same way. */
function messagesJson(msgs: readonly Message[]): string {
  if (msgs.length === 0) return '';
  let chain = joinedChains.get(msgs[0]);
  if (!chain) {
    chain = { refs: [], text: '', ends: [0] };
    joinedChains.set(msgs[0], chain);
  }
  const { refs, ends } = chain;
  const k = sharedPrefixLength(refs, msgs);
  if (k === msgs.length) return k === refs.length ? chain.text : chain.text.slice(0, ends[k]);
  let text = k === refs.length ? chain.text : chain.text.slice(0, ends[k]);
  refs.length = k;
  ends.length = k + 1;
  for (let i = k; i < msgs.length; i++) {
    const m = msgs[i];
    const json = cached(messageJson, m, () => toOpenAiMessages([m])[0]);
    text = i === 0 ? json : `${text},${json}`;
    refs.push(m);
    ends.push(text.length);
  }
  chain.text = text;
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
  const messages = messagesJson(req.messages);
  const systemJson = system ? JSON.stringify({ role: 'system', content: system }) : '';
  const list = systemJson && messages ? `${systemJson},${messages}` : systemJson || messages;
  let body = `${head.slice(0, -1)},"messages":[${list}]`;
  if (req.tools.length > 0)
    body += `,"tools":[${req.tools.map((t) => cached(toolJson, t, () => toOpenAiTools([t])![0])).join(',')}]`;
  return `${body}}`;
}

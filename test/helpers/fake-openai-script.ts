/**
 * The turn format shared by the fake OpenAI server and the scripted LLM, and the pure code that turns
 * one turn into `chat.completion.chunk` objects. No I/O here.
 */
import type { Usage } from '../../src/shared/types/index.ts';

/** One tool call the model "makes". `rawArgs` wins over `args` (use it for malformed JSON). */
export interface ScriptToolCall {
  /** Default: a generated `call_fake_…` id. */
  id?: string;
  /** Send no id at all (tests the client's id generation). */
  omitId?: boolean;
  name: string;
  args?: Record<string, unknown>;
  rawArgs?: string;
}

/**
 * One answer of `POST /v1/chat/completions`.
 * Example: `{ text: 'Reading it.', toolCalls: [{ name: 'read_file', args: { path: 'a.ts' } }] }`.
 */
export interface ScriptTurn {
  text?: string;
  toolCalls?: ScriptToolCall[];
  /** Reported usage; `null` sends no usage chunk; absent → a rough estimate. */
  usage?: Usage | null;
  /** Characters per text delta; default 16. */
  chunkSize?: number;
  /** Delay between chunks in ms; default 0. */
  delayMs?: number;
  /** Answer with an HTTP error instead of a stream. */
  error?: { status: number; body?: unknown; retryAfter?: number | string; retryAfterMs?: number };
  /** Destroy the socket after this many chunks (the role chunk counts as one). */
  breakAfterChunks?: number;
  /** Stop sending after this many chunks but keep the connection open. */
  stallAfterChunks?: number;
  /** Send an in-stream `{"error":…}` event after this many chunks, then end. */
  errorAfterChunks?: number;
  /** Send a non-JSON `data:` line after this many chunks, then end. */
  malformedAfterChunks?: number;
  /** Stream the tool calls' fragments round-robin (interleaved indices) instead of one after another. */
  interleaveToolCalls?: boolean;
  /** Default 'tool_calls' when there are tool calls, else 'stop'. */
  finishReason?: string;
  /** Only for the scripted LLM: resolve as a broken stream with this error text. */
  interrupted?: boolean | string;
  /** Only for the scripted LLM: reject with this error. */
  throw?: Error;
}

/** What a function turn receives: the parsed request body and its headers. */
export interface FakeChatRequest {
  model?: string;
  messages: Array<{ role: string; content?: unknown; [k: string]: unknown }>;
  tools?: unknown[];
  stream?: boolean;
  [k: string]: unknown;
}

/** A turn, or a function computing one from the request (e.g. to answer summarization prompts). */
export type ScriptEntry<R = FakeChatRequest> = ScriptTurn | ((request: R) => ScriptTurn);

/** When the queue is empty: the first rule whose regex matches the last user message answers. */
export interface ScriptRule {
  /** A string (also over JSON control) is compiled case-insensitively. */
  match: RegExp | string;
  /** Enqueued when the rule matches, then consumed one per request like scripted turns. */
  turns: ScriptEntry[];
}

/** The turn answering when nothing is scripted. */
export const DEFAULT_TURN: ScriptTurn = { text: 'ok' };

/** The text of the last user message (content parts joined), '' when there is none. */
export function lastUserText(req: FakeChatRequest): string {
  const users = (req.messages ?? []).filter((m) => m.role === 'user');
  const last = users[users.length - 1];
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  if (Array.isArray(last.content)) {
    return last.content
      .map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : ''))
      .join('');
  }
  return '';
}

/** Splits a string into `size`-character pieces (at least one piece for non-empty text). */
export function splitText(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += Math.max(1, size))
    out.push(text.slice(i, i + Math.max(1, size)));
  return out;
}

/** The raw argument JSON a scripted call streams. */
export function rawArgsOf(call: ScriptToolCall): string {
  return call.rawArgs ?? JSON.stringify(call.args ?? {});
}

/**
 * Builds the chunk objects of one streamed answer: role delta, text deltas, per tool call a header
 * chunk then its arguments in three fragments, the finish chunk, and (when `withUsage`) a usage chunk
 * with `choices: []`. The caller writes them as SSE and ends with `data: [DONE]`.
 */
export function buildChunks(
  turn: ScriptTurn,
  opts: { model: string; id: string; withUsage: boolean },
): object[] {
  const created = Math.floor(Date.now() / 1000);
  const base = { id: opts.id, object: 'chat.completion.chunk', created, model: opts.model };
  const choice = (delta: object, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const chunks: object[] = [choice({ role: 'assistant', content: '' })];
  for (const piece of splitText(turn.text ?? '', turn.chunkSize ?? 16))
    chunks.push(choice({ content: piece }));
  const calls = turn.toolCalls ?? [];
  const perCall = calls.map((call, index) => {
    const id = call.id ?? `call_fake_${index}_${Math.random().toString(36).slice(2, 10)}`;
    const header = { index, type: 'function', function: { name: call.name, arguments: '' } };
    const raw = rawArgsOf(call);
    const fragments = splitText(raw, Math.ceil(raw.length / 3) || 1).map((frag) =>
      choice({ tool_calls: [{ index, function: { arguments: frag } }] }),
    );
    return [choice({ tool_calls: [call.omitId ? header : { ...header, id }] }), ...fragments];
  });
  if (turn.interleaveToolCalls) {
    const longest = Math.max(0, ...perCall.map((c) => c.length));
    for (let i = 0; i < longest; i++) for (const c of perCall) if (c[i]) chunks.push(c[i]!);
  } else {
    for (const c of perCall) chunks.push(...c);
  }
  chunks.push(choice({}, turn.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop')));
  if (opts.withUsage && turn.usage !== null) {
    const usage = turn.usage ?? estimateUsage(turn);
    const prompt = usage.input_tokens ?? 0;
    const completion = usage.output_tokens ?? 0;
    chunks.push({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
      },
    });
  }
  return chunks;
}

/** A non-streamed `chat.completion` object for `stream: false` requests. */
export function buildCompletion(turn: ScriptTurn, opts: { model: string; id: string }): object {
  const usage = turn.usage ?? estimateUsage(turn);
  const calls = (turn.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_fake_${i}`,
    type: 'function',
    function: { name: c.name, arguments: rawArgsOf(c) },
  }));
  return {
    id: opts.id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: opts.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: turn.text ?? '',
          ...(calls.length ? { tool_calls: calls } : {}),
        },
        finish_reason: turn.finishReason ?? (calls.length ? 'tool_calls' : 'stop'),
      },
    ],
    usage: { prompt_tokens: usage.input_tokens ?? 0, completion_tokens: usage.output_tokens ?? 0 },
  };
}

function estimateUsage(turn: ScriptTurn): Usage {
  const out = (turn.text ?? '') + (turn.toolCalls ?? []).map(rawArgsOf).join('');
  return { input_tokens: 10, output_tokens: Math.max(1, Math.ceil(out.length / 4)) };
}

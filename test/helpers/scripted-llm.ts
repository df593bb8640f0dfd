/**
 * An in-process `LlmClient` answering from a script, instantly; for unit tests and the loop benchmark.
 * Same turn format as the fake OpenAI server (`ScriptTurn`): `text`, `toolCalls`, `usage`,
 * `finishReason`, plus `interrupted` (resolve as a broken stream) and `throw` (reject with that error).
 */
import type {
  ChatOptions,
  LlmClient,
  LlmResponse,
  ModelRequest,
} from '../../src/main/llm/types.ts';
import { abortError } from '../../src/main/abort.ts';
import { parseToolArgs } from '../../src/main/llm/tool-args.ts';
import type { ScriptTurn } from './fake-openai-script.ts';
import { rawArgsOf, splitText } from './fake-openai-script.ts';

/** A scripted turn, or a function of the request (e.g. to answer a summarization prompt). */
export type ScriptedTurn = ScriptTurn | ((request: ModelRequest) => ScriptTurn);

/** An LlmClient answering from a script, with its call log. */
export interface ScriptedLlm extends LlmClient {
  /** Every request received, in order (messages copied at call time). */
  readonly calls: ReadonlyArray<{ index: number; request: ModelRequest }>;
  push(...turns: ScriptedTurn[]): void;
  /** Turns not consumed yet. */
  remaining(): number;
  /** Contract: throws when any scripted turn was not consumed. */
  assertComplete(): void;
}

/**
 * Creates a scripted LLM.
 * Contract: a call with no turn left rejects with an Error naming the call index (never answers silently);
 * an already-aborted signal rejects with an AbortError.
 */
export function createScriptedLlm(turns: ScriptedTurn[] = []): ScriptedLlm {
  const queue = [...turns];
  const calls: Array<{ index: number; request: ModelRequest }> = [];
  let ids = 0;

  async function chat(request: ModelRequest, opts: ChatOptions): Promise<LlmResponse> {
    const index = calls.length;
    calls.push({ index, request: { ...request, messages: structuredClone(request.messages) } });
    if (opts.signal.aborted) throw abortError(opts.signal);
    const entry = queue.shift();
    if (entry === undefined)
      throw new Error(`ScriptedLlm: no scripted turn left for call #${index}`);
    const turn = typeof entry === 'function' ? entry(request) : entry;
    if (turn.throw) throw turn.throw;

    opts.onFirstChunk?.();
    const text = turn.text ?? '';
    for (const piece of splitText(text, turn.chunkSize ?? Math.max(1, text.length))) {
      opts.onDelta?.(piece);
      if (opts.signal.aborted) throw abortError(opts.signal);
    }
    const usage = turn.usage ?? undefined;
    if (turn.interrupted) {
      const error =
        typeof turn.interrupted === 'string' ? turn.interrupted : 'the stream broke (scripted)';
      return {
        content: text,
        tool_calls: [],
        interrupted: true,
        error,
        ...(usage ? { usage } : {}),
      };
    }
    const res: LlmResponse = { content: text, tool_calls: [] };
    const invalid: Record<string, string> = {};
    for (const call of turn.toolCalls ?? []) {
      const id = call.id ?? `call_scripted_${++ids}`;
      const raw = rawArgsOf(call);
      const parsed = parseToolArgs(raw);
      res.tool_calls.push({
        id,
        name: call.name,
        args: parsed.ok ? parsed.args : {},
        raw_args: raw,
      });
      if (!parsed.ok) invalid[id] = parsed.error;
    }
    if (Object.keys(invalid).length > 0) res.invalid_args = invalid;
    if (usage) res.usage = usage;
    res.finish_reason = turn.finishReason ?? (res.tool_calls.length > 0 ? 'tool_calls' : 'stop');
    return res;
  }

  return {
    chat,
    calls,
    push: (...more) => void queue.push(...more),
    remaining: () => queue.length,
    assertComplete() {
      if (queue.length > 0) {
        throw new Error(
          `ScriptedLlm: ${queue.length} scripted turn(s) not consumed after ${calls.length} call(s)`,
        );
      }
    },
  };
}

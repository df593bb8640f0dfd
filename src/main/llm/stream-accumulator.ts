/** Assembles streamed `chat.completion.chunk` objects into one `LlmResponse`. */
import type { ToolCall, Usage } from '../../shared/types/index.ts';
import type { LlmResponse } from './types.ts';
import { generateCallId, parseToolArgs } from './tool-args.ts';

/** The subset of a chat.completion.chunk we read; every field optional because servers vary. */
export interface ChunkLike {
  choices?: Array<{
    delta?: {
      content?: string | null;
      tool_calls?: Array<{
        index?: number;
        id?: string | null;
        function?: { name?: string | null; arguments?: string | null } | null;
      }> | null;
    } | null;
    finish_reason?: string | null;
  }> | null;
  usage?: { prompt_tokens?: number | null; completion_tokens?: number | null } | null;
}

interface PendingCall {
  id?: string;
  name: string;
  args: string;
}

/** Accumulates chunks; `finish()` builds the response, `interrupt()` the broken-stream response. */
export interface StreamAccumulator {
  /** Feeds one chunk; returns its text delta ('' when none). */
  push(chunk: ChunkLike): string;
  /** Whether a finish_reason was seen (a stream without one ended early). */
  readonly finished: boolean;
  finish(): LlmResponse;
  /** Contract: the partial text only, never tool calls (none of them may run). */
  interrupt(error: string): LlmResponse;
}

/** Creates an accumulator for one streamed completion. */
export function createStreamAccumulator(): StreamAccumulator {
  let content = '';
  let finishReason: string | undefined;
  let usage: Usage | undefined;
  // Keyed by the delta's `index`: parallel calls may interleave, and id/name only arrive once.
  const calls = new Map<number, PendingCall>();

  return {
    push(chunk) {
      if (chunk.usage) usage = toUsage(chunk.usage);
      const choice = chunk.choices?.[0];
      if (!choice) return '';
      const text = choice.delta?.content ?? '';
      content += text;
      for (const [pos, d] of (choice.delta?.tool_calls ?? []).entries()) {
        const index = d.index ?? pos;
        let call = calls.get(index);
        if (!call) {
          call = { name: '', args: '' };
          calls.set(index, call);
        }
        if (d.id) call.id = d.id;
        if (d.function?.name && call.name === '') call.name = d.function.name;
        if (d.function?.arguments) call.args += d.function.arguments;
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
      return text;
    },
    get finished() {
      return finishReason !== undefined;
    },
    finish() {
      const toolCalls: ToolCall[] = [];
      const invalid: Record<string, string> = {};
      for (const index of [...calls.keys()].sort((a, b) => a - b)) {
        const c = calls.get(index)!;
        const id = c.id ?? generateCallId();
        const parsed = parseToolArgs(c.args);
        toolCalls.push({ id, name: c.name, args: parsed.ok ? parsed.args : {}, raw_args: c.args });
        if (!parsed.ok) invalid[id] = parsed.error;
      }
      const res: LlmResponse = { content, tool_calls: toolCalls };
      if (usage) res.usage = usage;
      if (finishReason) res.finish_reason = finishReason;
      if (Object.keys(invalid).length > 0) res.invalid_args = invalid;
      return res;
    },
    interrupt(error) {
      const res: LlmResponse = { content, tool_calls: [], interrupted: true, error };
      if (usage) res.usage = usage;
      return res;
    },
  };
}

function toUsage(u: NonNullable<ChunkLike['usage']>): Usage {
  // Absent stays absent: "not reported" must not read as 0 tokens.
  const out: Usage = {};
  if (typeof u.prompt_tokens === 'number') out.input_tokens = u.prompt_tokens;
  if (typeof u.completion_tokens === 'number') out.output_tokens = u.completion_tokens;
  return out;
}

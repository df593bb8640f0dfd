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
  index: number;
  seq: number;
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
  const byIndex = new Map<number, PendingCall>();
  const all: PendingCall[] = [];

  const interrupt = (error: string): LlmResponse => {
    const res: LlmResponse = { content, tool_calls: [], interrupted: true, error };
    if (usage) res.usage = usage;
    return res;
  };

  return {
    push(chunk) {
      if (chunk.usage) usage = toUsage(chunk.usage);
      const choice = chunk.choices?.[0];
      if (!choice) return '';
      const text = choice.delta?.content ?? '';
      content += text;
      for (const [pos, d] of (choice.delta?.tool_calls ?? []).entries()) {
        const index = d.index ?? pos;
        let call = byIndex.get(index);
        // A different id at a known index is a new call: some servers send every call as index 0.
        if (!call || (d.id && call.id && d.id !== call.id)) {
          call = { index, seq: all.length, name: '', args: '' };
          byIndex.set(index, call);
          all.push(call);
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
      if (finishReason === 'length' && all.length > 0) {
        // The token limit cut the answer: the last call's arguments are truncated, so none may run.
        return interrupt(
          'the answer hit the max tokens limit in the middle of a tool call — raise max tokens and retry',
        );
      }
      const toolCalls: ToolCall[] = [];
      const invalid: Record<string, string> = {};
      const seen = new Set<string>();
      for (const c of [...all].sort((a, b) => a.index - b.index || a.seq - b.seq)) {
        let id = c.id ?? generateCallId();
        let duplicate = false;
        if (seen.has(id)) {
          // Two results with one id would break the transcript; rename and refuse this call.
          id = generateCallId();
          duplicate = true;
        }
        seen.add(id);
        const parsed = parseToolArgs(c.args);
        toolCalls.push({ id, name: c.name, args: parsed.ok ? parsed.args : {}, raw_args: c.args });
        if (duplicate)
          invalid[id] = `duplicate tool call id '${c.id}': this call was not run, send it again`;
        else if (!parsed.ok) invalid[id] = parsed.error;
      }
      const res: LlmResponse = { content, tool_calls: toolCalls };
      if (usage) res.usage = usage;
      if (finishReason) res.finish_reason = finishReason;
      if (Object.keys(invalid).length > 0) res.invalid_args = invalid;
      return res;
    },
    interrupt,
  };
}

function toUsage(u: NonNullable<ChunkLike['usage']>): Usage {
  // Absent stays absent: "not reported" must not read as 0 tokens.
  const out: Usage = {};
  if (typeof u.prompt_tokens === 'number') out.input_tokens = u.prompt_tokens;
  if (typeof u.completion_tokens === 'number') out.output_tokens = u.completion_tokens;
  return out;
}

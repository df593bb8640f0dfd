/**
 * An in-process LlmClient that answers with one `read_file` call (or, asked for a summary, with a
 * short one) in the next turn of the event loop, as an answer from the network arrives — so what a
 * run writes at the end of a turn (a round's messages) is paid in every round, with hooks on or off,
 * as it is with a real model — and times itself (its own time is subtracted from the loop's per-round figure). Unlike test/helpers/scripted-llm.ts
 * it does not deep-copy each request, which would cost O(thread length) per round and be billed to us.
 */
import type {
  ChatOptions,
  LlmClient,
  LlmResponse,
  ModelRequest,
} from '../../src/main/llm/types.ts';

export interface InstantLlm extends LlmClient {
  /** performance.now() at the start of every agent-round call (summaries excluded). */
  readonly callTimes: number[];
  /** Total ms spent inside chat(). */
  ownMs: number;
  /** Messages in the last request (to check the whole thread was sent). */
  lastRequestLength: number;
  /** Summarization requests answered (they have no tools). */
  summaries: number;
}

export function createInstantLlm(path: string): InstantLlm {
  let ids = 0;
  const llm: InstantLlm = {
    callTimes: [],
    ownMs: 0,
    lastRequestLength: 0,
    summaries: 0,
    async chat(req: ModelRequest, opts: ChatOptions): Promise<LlmResponse> {
      await new Promise((resolve) => setImmediate(resolve));
      const t0 = performance.now();
      if (req.tools.length > 0) llm.callTimes.push(t0);
      llm.lastRequestLength = req.messages.length;
      opts.signal.throwIfAborted();
      opts.onFirstChunk?.();
      if (req.tools.length === 0) {
        // The summarization hook's request (no tools): answer with a summary, as a model would.
        llm.summaries++;
        llm.ownMs += performance.now() - t0;
        return {
          content:
            'Summary: the user asked to read src/router.ts repeatedly; it was read each time.',
          tool_calls: [],
          finish_reason: 'stop',
        };
      }
      const raw = JSON.stringify({ path });
      const res: LlmResponse = {
        content: '',
        tool_calls: [
          { id: `call_bench_${++ids}`, name: 'read_file', args: { path }, raw_args: raw },
        ],
        usage: { input_tokens: 100, output_tokens: 10 },
        finish_reason: 'tool_calls',
      };
      llm.ownMs += performance.now() - t0;
      return res;
    },
  };
  return llm;
}

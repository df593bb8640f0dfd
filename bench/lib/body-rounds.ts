/**
 * The request body of a long thread without a stored summary, round after round: each round adds a
 * `read_file` exchange. Over its compaction trigger (hybrid strategy) `pruneToolOutputs` keeps the
 * thread at its token target by pruning one more old output a round, so the first message that
 * differs from the last request moves on every round and its segment is joined again
 * (src/main/llm/joined-messages.ts); under it, the thread only grows.
 */
import { estimateTokens } from '../../src/main/agent/tokens.ts';
import { requestBodyChunks } from '../../src/main/llm/request-body.ts';
import { pruneToolOutputs } from '../../src/main/middleware/compaction.ts';
import type { Message } from '../../src/shared/types/index.ts';
import { syntheticThread } from './messages.ts';

const TOOLS = [{ name: 'read_file', description: 'Reads a file', parameters: { type: 'object' } }];

/** Milliseconds building each round's body takes, for `rounds` rounds on a `size`-message thread. */
export function bodyRoundTimes(size: number, rounds: number, prune: boolean): number[] {
  const thread = syntheticThread(size);
  const target = estimateTokens(thread);
  const results = syntheticThread(rounds * 4 + 4, 1).filter((m) => m.role === 'tool');
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const result = results[round]!;
    thread.push(
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: result.tool_call_id!, name: 'read_file', args: { path: 'a.ts' } }],
      },
      result,
    );
    const messages: Message[] = prune
      ? pruneToolOutputs(thread, 0, thread.length - 2, target).messages
      : thread.slice();
    const t0 = performance.now();
    requestBodyChunks({ model: 'm', system: ['You help.'], messages, tools: TOOLS, params: {} });
    times.push(performance.now() - t0);
  }
  return times;
}

/** The one token heuristic (characters / 4), per text and per message so callers can budget slices. */
import type { Message } from '../../shared/types/index.ts';
import { createPrefixSum } from './prefix-sum.ts';

const CHARS_PER_TOKEN = 4;

/** Estimated tokens of a text: ceil(length / 4). */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * Estimated tokens of one message: ceil((content + raw tool arguments) / 4).
 * Contract: pure and deterministic; arguments count as `raw_args` when present, else their JSON.
 */
export function estimateMessageTokens(m: Message): number {
  let chars = m.content.length;
  for (const tc of m.tool_calls ?? []) chars += (tc.raw_args ?? JSON.stringify(tc.args)).length;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

const conversationTokens = createPrefixSum(estimateMessageTokens);

/**
 * Estimated tokens of a conversation: the sum of `estimateMessageTokens` over `msgs`.
 * Contract: a call on a thread that grew since the last call measures only the new messages
 * (agent/prefix-sum.ts), so counting every round does not grow with the thread.
 */
export function estimateTokens(msgs: readonly Message[]): number {
  return conversationTokens.total(msgs);
}

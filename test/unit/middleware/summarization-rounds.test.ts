/**
 * Round after round on one thread, compaction gives what a first look at the same messages gives:
 * nothing remembered from earlier rounds survives an edit, a rewind, a fork or a new summary.
 */
import { describe, expect, it } from 'vitest';
import { compactMessages, type CompactInput } from '../../../src/main/middleware/summarization.ts';
import {
  findSplit,
  resolveCompaction,
  SUMMARY_PREFIX,
} from '../../../src/main/middleware/compaction.ts';
import type { CompactionSummary } from '../../../src/main/store/types.ts';
import type { Message } from '../../../src/shared/types/index.ts';

const user = (content: string): Message => ({ role: 'user', content });

/** A user question, then `calls` rounds of one write_file call and its result, then an answer. */
function exchange(tag: string, calls: number, chars = 600): Message[] {
  const out: Message[] = [user(`question ${tag}`)];
  for (let i = 0; i < calls; i++) {
    const id = `${tag}_${i}`;
    const args = { path: `f${i}.ts`, content: `${tag}${i} `.repeat(chars / 4) };
    out.push({
      role: 'assistant',
      content: '',
      tool_calls: [{ id, name: 'write_file', args, raw_args: JSON.stringify(args) }],
    });
    out.push({
      role: 'tool',
      content: `wrote ${tag}${i} `.repeat(chars / 8),
      tool_call_id: id,
      name: 'write_file',
    });
  }
  out.push({ role: 'assistant', content: `done ${tag}` });
  return out;
}

const config = resolveCompaction(3_000, { strategy: 'hybrid' });

function input(messages: Message[], stored?: CompactionSummary): CompactInput {
  return {
    messages,
    threadMessages: messages,
    stored,
    config,
    contentArgs: (name) => (name === 'write_file' ? ['content'] : undefined),
    summarize: async () => 'SUMMARY',
    now: () => 1,
  };
}

/** The outcome for `messages`, and for fresh copies of them that nothing was remembered for. */
async function both(messages: Message[], stored?: CompactionSummary) {
  const fresh = structuredClone(messages);
  return [
    await compactMessages(input(messages, stored)),
    await compactMessages(input(fresh, stored && { ...stored })),
  ];
}

describe('compaction round after round', () => {
  it('matches a first look after growth, an edit in place, a rewind, a fork and a new summary', async () => {
    const thread = [...exchange('a', 6), ...exchange('b', 6)];
    const stored: CompactionSummary = { upto: 14, content: 'S1', created_at: 1 };
    for (const step of [
      () => thread.push(...exchange('c', 1, 40)),
      () => thread.push(...exchange('d', 4)),
      // Edited in place, as the thread store replaces a conversation (same array).
      () => thread.splice(16, 2, ...exchange('e', 0)),
      () => thread.splice(20),
      () => thread.push(...exchange('f', 8)),
    ]) {
      step();
      for (const s of [undefined, stored, { ...stored, upto: 16, content: 'S2' }]) {
        const [seen, first] = await both(thread, s);
        expect(seen).toEqual(first);
      }
    }
    const fork = [...thread.slice(0, 18), ...exchange('g', 3)];
    const [seen, first] = await both(fork, stored);
    expect(seen).toEqual(first);
    expect(seen.messages[0].content).toBe(`${SUMMARY_PREFIX}\nS1`);
  });

  it('finds the same split on a grown or edited thread as on a fresh one', () => {
    const thread = [...exchange('a', 3), ...exchange('b', 3)];
    const split = (msgs: Message[]) => findSplit(msgs, 0, { protectedTokens: 50 });
    for (const step of [
      () => thread.push(...exchange('c', 2)),
      () => thread.splice(thread.length - 3, 3, user('replaced the last turn')),
      () => thread.push(...exchange('d', 1)),
    ]) {
      step();
      expect(split(thread)).toBe(split(structuredClone(thread)));
    }
  });
});

/** The joined JSON of a request's messages, kept in segments between rounds. */
import { describe, expect, it } from 'vitest';
import { SEGMENT_BYTES, joinedMessages } from '../../../src/main/llm/joined-messages.ts';
import type { Message } from '../../../src/shared/types/index.ts';

const bytesOf = (m: Message) => Buffer.from(JSON.stringify(m));
const joined = (msgs: readonly Message[]) => msgs.map((m) => JSON.stringify(m)).join(',');
const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8');

/** ~1.5 KB messages: a 300-message thread spans several segments. */
const say = (i: number, note = ''): Message => ({
  role: i % 2 ? 'assistant' : 'user',
  content: `m${i}${note} ${'é—x'.repeat(500)}`,
});
const pruned = (m: Message): Message => ({
  ...m,
  content: `[output pruned: ${m.content.length} chars]`,
});

describe('joinedMessages', () => {
  it('is the messages joined, and every body built earlier stays as it was, across growth, pruning, rewinds, edits and forks', () => {
    const thread = Array.from({ length: 300 }, (_, i) => say(i));
    expect(JSON.stringify(thread).length).toBeGreaterThan(3 * SEGMENT_BYTES);
    const lists: Message[][] = [
      thread.slice(0, 1),
      thread.slice(0, 120),
      thread,
      [...thread, say(300)],
      thread.map((m, i) => (i === 7 ? pruned(m) : m)),
      thread.map((m, i) => (i <= 8 ? pruned(m) : m)),
      thread.slice(0, 150),
      [...thread.slice(0, 150), say(150, ' edited'), ...thread.slice(151)],
      [...thread.slice(0, 40), ...thread.slice(41)],
      [...thread.slice(0, 200), say(999, ' fork')],
      thread,
    ];
    const bodies = lists.map((msgs) => ({ msgs, chunks: joinedMessages(msgs, bytesOf) }));
    for (const { msgs, chunks } of bodies) expect(text(chunks)).toBe(joined(msgs));
  });

  it('rebuilds only the segment of a message replaced where it stands, and reuses the others as they are', () => {
    const thread = Array.from({ length: 300 }, (_, i) => say(i, ' b'));
    const before = joinedMessages(thread, bytesOf);
    expect(before.length).toBeGreaterThan(3);
    const after = joinedMessages(
      thread.map((m, i) => (i === 150 ? pruned(m) : m)),
      bytesOf,
    );
    const changed = after.filter(
      (chunk, s) => chunk !== before[s] && !sameMemory(chunk, before[s]),
    );
    expect(changed).toHaveLength(1);
    expect(text(changed)).toContain('[output pruned');
  });

  it('is nothing for no messages', () => {
    expect(joinedMessages([], bytesOf)).toEqual([]);
  });
});

function sameMemory(a: Buffer, b: Buffer | undefined): boolean {
  return (
    b !== undefined &&
    a.buffer === b.buffer &&
    a.byteOffset === b.byteOffset &&
    a.length === b.length
  );
}

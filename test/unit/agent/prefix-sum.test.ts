/** Counting a thread round after round gives the plain sum whatever happened to the thread in between. */
import { describe, expect, it } from 'vitest';
import { createPrefixSum } from '../../../src/main/agent/prefix-sum.ts';
import { estimateMessageTokens, estimateTokens } from '../../../src/main/agent/tokens.ts';
import type { Message } from '../../../src/shared/types/index.ts';

const user = (content: string): Message => ({ role: 'user', content });
const plain = (msgs: Message[]) => msgs.reduce((n, m) => n + estimateMessageTokens(m), 0);

function thread(n: number, tag = ''): Message[] {
  return Array.from({ length: n }, (_, i) => user(`${tag}${i} ${'x'.repeat(i * 7)}`));
}

describe('estimateTokens over a changing thread', () => {
  it('follows a thread that grows, is edited in place, rewound, forked and compacted', () => {
    const msgs = thread(30);
    expect(estimateTokens(msgs)).toBe(plain(msgs));
    msgs.push(user('a new question that is rather long'));
    expect(estimateTokens(msgs)).toBe(plain(msgs));
    // Edited in place, as the thread store replaces a conversation: same array, one message swapped.
    msgs.splice(10, 1, user('y'.repeat(400)));
    expect(estimateTokens(msgs)).toBe(plain(msgs));
    // Rewound: a shorter array starting the same way, then grown differently.
    const rewound = msgs.slice(0, 12);
    expect(estimateTokens(rewound)).toBe(plain(rewound));
    rewound.push(user('z'.repeat(90)));
    expect(estimateTokens(rewound)).toBe(plain(rewound));
    expect(estimateTokens(msgs)).toBe(plain(msgs));
    // Forked: a copy with its own tail; both keep their own totals.
    const fork = [...msgs.slice(0, 20), user('fork')];
    expect(estimateTokens(fork)).toBe(plain(fork));
    expect(estimateTokens(msgs)).toBe(plain(msgs));
    // Compacted: the front replaced by a summary message.
    const compacted = [user('summary'), ...msgs.slice(25)];
    expect(estimateTokens(compacted)).toBe(plain(compacted));
    expect(estimateTokens([])).toBe(0);
  });

  it('measures each message once while a thread only grows', () => {
    const measured: Message[] = [];
    const sum = createPrefixSum((m) => (measured.push(m), m.content.length));
    const msgs = thread(5);
    sum.total(msgs);
    msgs.push(user('six'), user('seven'));
    expect(sum.total(msgs)).toBe(msgs.reduce((n, m) => n + m.content.length, 0));
    expect(sum.total(msgs.slice(0, 3))).toBe(
      msgs.slice(0, 3).reduce((n, m) => n + m.content.length, 0),
    );
    expect(measured).toEqual(msgs);
  });

  it('keeps a thread and a compacted copy of it apart, measuring only new messages each round', () => {
    const measured: Message[] = [];
    const sum = createPrefixSum((m) => (measured.push(m), m.content.length));
    const plainLength = (msgs: Message[]) => msgs.reduce((n, m) => n + m.content.length, 0);
    const msgs = thread(10);
    const pruned = user('[pruned]');
    const copy = () => [msgs[0], pruned, ...msgs.slice(2)];
    expect(sum.total(msgs)).toBe(plainLength(msgs));
    expect(sum.total(copy())).toBe(plainLength(copy()));
    for (let round = 0; round < 3; round++) {
      const fresh = user(`round ${round}`);
      msgs.push(fresh);
      measured.length = 0;
      expect(sum.total(msgs)).toBe(plainLength(msgs));
      expect(sum.total(copy())).toBe(plainLength(copy()));
      expect(measured).toEqual([fresh, fresh]);
    }
  });

  it('measures only the changed places of a copy whose pruned part grows round by round', () => {
    const measured: Message[] = [];
    const sum = createPrefixSum((m) => (measured.push(m), m.content.length));
    const plainLength = (msgs: Message[]) => msgs.reduce((n, m) => n + m.content.length, 0);
    const msgs = thread(20);
    const pruned = new Map<Message, Message>();
    const prune = (m: Message) => pruned.get(m) ?? pruned.set(m, user('[pruned]')).get(m)!;
    const copy = (upto: number) => msgs.map((m, i) => (i > 0 && i < upto ? prune(m) : m));
    sum.total(msgs);
    sum.total(copy(3));
    for (let round = 0; round < 4; round++) {
      const fresh = user(`round ${round}`);
      msgs.push(fresh);
      measured.length = 0;
      expect(sum.total(msgs)).toBe(plainLength(msgs));
      expect(sum.total(copy(4 + round))).toBe(plainLength(copy(4 + round)));
      expect(measured).toEqual([fresh, prune(msgs[3 + round]), fresh]);
    }
  });

  it('keeps threads that alternate apart', () => {
    const a = thread(10, 'a');
    const b = thread(12, 'b');
    for (let round = 0; round < 3; round++) {
      a.push(user(`a${round}`));
      b.push(user(`b${round} ${'q'.repeat(round * 50)}`));
      expect(estimateTokens(a)).toBe(plain(a));
      expect(estimateTokens(b)).toBe(plain(b));
    }
  });
});

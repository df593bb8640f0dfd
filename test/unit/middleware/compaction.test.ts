import { describe, expect, it } from 'vitest';
import {
  findSplit,
  leadingSystemCount,
  pruneToolOutputs,
  renderTranscript,
  resolveCompaction,
  SUMMARY_PREFIX,
  summaryMessage,
  truncateFileArgs,
} from '../../../src/main/middleware/compaction.ts';
import { estimateMessageTokens, estimateTokens } from '../../../src/main/agent/tokens.ts';
import type { Message } from '../../../src/shared/types/index.ts';
import { createFilesystemTools } from '../../../src/main/tools/index.ts';

const user = (content: string): Message => ({ role: 'user', content });
const ai = (content: string, ...ids: string[]): Message =>
  ids.length ? { role: 'assistant', content, tool_calls: ids.map((id) => ({ id, name: 'read_file', args: { path: id } })) } : { role: 'assistant', content };
const tool = (id: string, content = `result ${id}`): Message => ({ role: 'tool', content, tool_call_id: id, name: 'read_file' });

/** Deterministic PRNG (mulberry32) so the property test is reproducible. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random valid conversation: system prompt(s), then user turns with tool-calling assistant steps. */
function randomConversation(rand: () => number): Message[] {
  const msgs: Message[] = [];
  const systems = Math.floor(rand() * 3);
  for (let i = 0; i < systems; i++) msgs.push({ role: 'system', content: `sys ${i}` });
  let id = 0;
  const turns = 1 + Math.floor(rand() * 12);
  for (let t = 0; t < turns; t++) {
    msgs.push(user(`u${t} ${'x'.repeat(Math.floor(rand() * 200))}`));
    const steps = Math.floor(rand() * 4);
    for (let s = 0; s < steps; s++) {
      const calls = 1 + Math.floor(rand() * 4);
      const ids = Array.from({ length: calls }, () => `c${id++}`);
      msgs.push(ai(rand() < 0.5 ? '' : 'thinking', ...ids));
      for (const cid of ids) msgs.push(tool(cid, 'o'.repeat(Math.floor(rand() * 300))));
    }
    if (rand() < 0.8) msgs.push(ai(`done ${t}`));
  }
  return msgs;
}

describe('token estimate', () => {
  it('is ceil((content + raw args or JSON args)/4) per message', () => {
    expect(estimateMessageTokens(user('abcde'))).toBe(2);
    const m: Message = { role: 'assistant', content: 'ab', tool_calls: [{ id: '1', name: 'x', args: { a: 1 }, raw_args: '{"a": 1}' }] };
    expect(estimateMessageTokens(m)).toBe(Math.ceil((2 + 8) / 4));
    expect(estimateMessageTokens({ ...m, tool_calls: [{ id: '1', name: 'x', args: { a: 1 } }] })).toBe(Math.ceil((2 + 7) / 4));
    expect(estimateTokens([user('a'), user('b')])).toBe(2);
  });
});

describe('resolveCompaction', () => {
  it('fills in the default window, strategy, trigger and keep limits', () => {
    expect(resolveCompaction(undefined)).toEqual({ contextWindow: 128_000, strategy: 'hybrid', trigger: 0.85, target_tokens: 80_000, preserve_last_n: 0, protected_tokens: 0 });
    expect(resolveCompaction(10_000, { trigger: 5, strategy: 'summarization', target_tokens: 3_000 })).toMatchObject({ trigger: 0.85, strategy: 'summarization', target_tokens: 3_000 });
  });
});

describe('findSplit', () => {
  it('keeps the last 10 % of the messages after the system prompt, at least 2', () => {
    const ten = [{ role: 'system', content: 's' } as Message, ...Array.from({ length: 10 }, (_, i) => user(`m${i}`))];
    expect(leadingSystemCount(ten)).toBe(1);
    expect(findSplit(ten, 1)).toBe(9); // 10 % of 10 = 1 → min 2
    const fifty = Array.from({ length: 50 }, (_, i) => user(`m${i}`));
    expect(findSplit(fifty, 0)).toBe(45);
    expect(findSplit(fifty, 0, { preserveLastN: 12 })).toBe(38);
    expect(findSplit([user('a'), user('b')], 0)).toBe(0); // nothing to compact
  });

  it('keeps at least protected_tokens of recent messages', () => {
    const msgs = Array.from({ length: 20 }, () => user('x'.repeat(40))); // 10 tokens each
    expect(findSplit(msgs, 0, { protectedTokens: 55 })).toBe(14);
  });

  it('moves the split before an assistant whose results would be cut off', () => {
    const msgs = [user('q'), ai('', 'a', 'b'), tool('a'), tool('b'), ai('', 'c'), tool('c'), ai('done')];
    // last 2 = [tool c, done] → starts with a tool → move to the assistant that called c
    expect(findSplit(msgs, 0)).toBe(4);
  });

  it('never orphans a tool result, over many random conversations and settings', () => {
    const rand = rng(42);
    let checked = 0;
    for (let run = 0; run < 2_000; run++) {
      const msgs = randomConversation(rand);
      const lead = leadingSystemCount(msgs);
      const split = findSplit(msgs, lead, { preserveLastN: Math.floor(rand() * 6), protectedTokens: rand() < 0.3 ? Math.floor(rand() * 300) : 0 });
      expect(split).toBeGreaterThanOrEqual(lead);
      expect(split).toBeLessThanOrEqual(msgs.length);
      if (split === lead) continue;
      checked++;
      expect(msgs[split]?.role).not.toBe('tool');
      const calledAt = new Map<string, number>();
      msgs.forEach((m, i) => m.tool_calls?.forEach((tc) => calledAt.set(tc.id, i)));
      msgs.forEach((m, i) => {
        if (m.role !== 'tool') return;
        const owner = calledAt.get(m.tool_call_id!)!;
        // a call and its result are on the same side of the split
        expect(owner < split).toBe(i < split);
      });
    }
    expect(checked).toBeGreaterThan(500);
  });
});

describe('truncateFileArgs', () => {
  it("cuts the tools' content arguments to 2,000 chars and updates raw_args; never mutates", () => {
    const big = 'a'.repeat(5_000);
    const m: Message = {
      role: 'assistant',
      content: '',
      tool_calls: [
        { id: '1', name: 'write_file', args: { path: 'f', content: big }, raw_args: JSON.stringify({ path: 'f', content: big }) },
        { id: '2', name: 'edit_file', args: { path: 'f', old_text: big, new_text: 'short' } },
        { id: '3', name: 'execute', args: { command: big } },
      ],
    };
    const copy = structuredClone(m);
    const contentArgs = (name: string) => createFilesystemTools().find((t) => t.name === name)?.contentArgs;
    const out = truncateFileArgs(m, contentArgs);
    expect(m).toEqual(copy);
    const [w, e, x] = out.tool_calls!;
    expect((w.args.content as string).startsWith('a'.repeat(2_000) + '\n[… 3000 more chars cut')).toBe(true);
    expect(JSON.parse(w.raw_args!)).toEqual(w.args);
    expect((e.args.old_text as string).length).toBeLessThan(2_100);
    expect(e.args.new_text).toBe('short');
    expect(x).toBe(m.tool_calls![2]);
    expect(estimateMessageTokens(out)).toBeLessThan(estimateMessageTokens(m));
    expect(truncateFileArgs(user('hi'), contentArgs)).toEqual(user('hi'));
  });
});

describe('pruneToolOutputs', () => {
  it('prunes old tool outputs oldest first and stops once under the target', () => {
    const msgs = [user('q'), ai('', 'a', 'b', 'c'), tool('a', 'A'.repeat(400)), tool('b', 'B'.repeat(400)), tool('c', 'C'.repeat(400)), ai('ok')];
    const before = estimateTokens(msgs);
    const { messages, pruned } = pruneToolOutputs(msgs, 0, msgs.length, before - 150);
    expect(pruned).toBe(2);
    expect(messages[2].content).toBe('[output pruned: 400 chars]');
    expect(messages[3].content).toBe('[output pruned: 400 chars]');
    expect(messages[4].content).toBe('C'.repeat(400));
    expect(msgs[2].content).toBe('A'.repeat(400));
    expect(pruneToolOutputs(msgs, 0, 3, 0).pruned).toBe(1);
  });
});

describe('summary message and transcript', () => {
  it('is a user message with a clear prefix; the transcript caps huge messages', () => {
    expect(summaryMessage(' s \n')).toEqual({ role: 'user', content: `${SUMMARY_PREFIX}\ns` });
    const text = renderTranscript([user('u'), ai('', 'a'), tool('a', 'z'.repeat(50_000))], 128_000);
    expect(text).toContain('[User]\nu');
    expect(text).toContain('→ read_file({"path":"a"})');
    expect(text).toContain('[Tool result: read_file]');
    expect(text.length).toBeLessThan(9_000);
  });

  it('leaves out the oldest messages (never an earlier summary) when the whole would not fit', () => {
    const msgs = [summaryMessage('old summary'), ...Array.from({ length: 40 }, (_, i) => user(`${i} ${'y'.repeat(1_000)}`))];
    const text = renderTranscript(msgs, 5_000); // budget 14,000 chars
    expect(text.startsWith(`[User]\n${SUMMARY_PREFIX}\nold summary`)).toBe(true);
    expect(text).toMatch(/\[\d+ earlier messages omitted\]/);
    expect(text).toContain('39 y');
    expect(text.length).toBeLessThanOrEqual(14_000 + 100);
  });
});

import { describe, expect, it } from 'vitest';
import type { RunContext } from '../../../src/main/pipeline/hook.ts';
import { estimateTokens } from '../../../src/main/agent/tokens.ts';
import { SUMMARY_PREFIX } from '../../../src/main/middleware/compaction.ts';
import { ToolRegistry } from '../../../src/main/tools/registry.ts';
import { createFilesystemTools } from '../../../src/main/tools/index.ts';
import { compactThreadNow, createSummarizationHook, type CompactionStore, type SummarizationHookOptions } from '../../../src/main/middleware/summarization.ts';
import type { LlmClient, LlmResponse, ModelRequest } from '../../../src/main/llm/types.ts';
import type { CompactionSummary } from '../../../src/main/store/types.ts';
import type { AgentState, Message, StreamEvent } from '../../../src/shared/types/index.ts';
import { createScriptedLlm } from '../../helpers/scripted-llm.ts';
import { requestOf } from '../../helpers/model-request.ts';

const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });
const SYSTEM: Message = { role: 'system', content: 'You are helpful.\n\n<agent_memory>\nM\n</agent_memory>' };

function fakeStore(): CompactionStore & { saved: CompactionSummary[] } {
  const map = new Map<string, CompactionSummary>();
  const saved: CompactionSummary[] = [];
  return {
    saved,
    getCompaction: (id) => map.get(id),
    setCompaction: (id, s) => {
      saved.push(s);
      map.set(id, s);
    },
  };
}

function setup(thread: Message[], llm: LlmClient, opts: SummarizationHookOptions) {
  const events: StreamEvent[] = [];
  const traceEvents: string[] = [];
  const state: AgentState = { thread_id: 't1', messages: thread, todos: [], files: {} };
  const tools = new ToolRegistry();
  for (const tool of createFilesystemTools()) tools.register(tool);
  const ctx = {
    threadId: 't1',
    runId: 'r1',
    model: 'test-model',
    llm,
    signal: new AbortController().signal,
    state,
    emit: (e: StreamEvent) => events.push(e),
    trace: { recordEvent: (name: string) => traceEvents.push(name), ...noopSpans() },
    tools,
  } as unknown as RunContext;
  const hook = createSummarizationHook({ now: () => 1_000, ...opts });
  const sent: Message[][] = [];
  /** One model call through the hook, with a system block as modifyRequest would add; `sent` as on the wire. */
  const call = async () => {
    await hook.wrapModelCall!(ctx, requestOf(state.messages, [SYSTEM.content]), async (req) => {
      sent.push([SYSTEM, ...req.messages]);
      return { content: 'answer', tool_calls: [] };
    });
    return sent[sent.length - 1];
  };
  return { ctx, events, traceEvents, call, sent, state };
}

/** The span half of a TraceRecorder, doing nothing. */
function noopSpans() {
  const span = { set: () => span, setAll: () => span, addEvent: () => span, fail: () => span, end: () => {}, record: {} };
  return { startSpan: () => span, withSpan: <T>(_s: unknown, fn: () => Promise<T>) => fn(), currentSpan: () => undefined };
}

/** `n` user/assistant messages of `chars` characters each. */
function chat(n: number, chars = 396): Message[] {
  return Array.from({ length: n }, (_, i) => (i % 2 === 0 ? user : assistant)(`${String(i).padStart(3, '0')} ${'x'.repeat(chars - 4)}`));
}

const summaryTurn = (text: string) => ({ text });

describe('SummarizationHook trigger', () => {
  it('passes through at exactly 85 % of the window and compacts just above it', async () => {
    // window 10,000 → trigger 8,500 tokens; SYSTEM is 15 tokens, each chat message 99 tokens
    const sysTokens = estimateTokens([SYSTEM]);
    const thread = chat(85);
    thread.push(user('y'.repeat((8_500 - sysTokens - estimateTokens(thread)) * 4)));
    expect(estimateTokens([SYSTEM, ...thread])).toBe(8_500);
    const llm = createScriptedLlm([summaryTurn('S1')]);
    const below = setup(thread, llm, { contextWindow: 10_000, compaction: { strategy: 'summarization' } });
    const out = await below.call();
    expect(out).toEqual([SYSTEM, ...thread]);
    expect(llm.calls).toHaveLength(0);

    thread.push(user('z'));
    const above = setup(thread, llm, { contextWindow: 10_000, compaction: { strategy: 'summarization' } });
    const compacted = await above.call();
    expect(llm.calls).toHaveLength(1);
    expect(compacted[0]).toBe(SYSTEM);
    expect(compacted[1]).toEqual({ role: 'user', content: `${SUMMARY_PREFIX}\nS1` });
    // 87 thread messages: 10 % = 8 kept verbatim
    expect(compacted.slice(2)).toEqual(thread.slice(-8));
    expect(above.events).toEqual([
      expect.objectContaining({ event: 'on_compaction', data: { before_tokens: 8_501, after_tokens: estimateTokens(compacted), summarized_messages: 79 } }),
    ]);
    const req = llm.calls[0].request;
    expect(req.tools).toEqual([]);
    expect(req.model).toBe('test-model');
    expect(req.system[0]).toContain('fewer than 2,000 words');
    expect(req.messages[0].content).toContain('078 xxx');
    expect(req.messages[0].content).not.toContain('079 xxx'); // the first recent message
    expect(req.messages[0].content).toMatch(/\[\d+ earlier messages omitted\]/); // 79 × 400 chars > 70 % of the window
    expect(req.messages[0].content).not.toContain('You are helpful');
  });

  it('keeps at least 2 messages verbatim', async () => {
    const thread = chat(6, 4_000);
    const llm = createScriptedLlm([summaryTurn('S')]);
    const s = setup(thread, llm, { contextWindow: 5_000, compaction: { strategy: 'summarization' } });
    const out = await s.call();
    expect(out.map((m) => m.content.slice(0, 3))).toEqual([SYSTEM.content.slice(0, 3), `${SUMMARY_PREFIX}`.slice(0, 3), '004', '005']);
  });
});

describe('SummarizationHook tool pairs', () => {
  it('never sends a tool result without its call, for random sizes', async () => {
    for (let k = 1; k <= 30; k++) {
      const thread: Message[] = [user('start')];
      for (let i = 0; i < k; i++) {
        thread.push({ role: 'assistant', content: '', tool_calls: [{ id: `c${i}a`, name: 'read_file', args: { path: `f${i}` } }, { id: `c${i}b`, name: 'grep', args: { q: i } }] });
        thread.push({ role: 'tool', content: 'o'.repeat(200 + 37 * i), tool_call_id: `c${i}a`, name: 'read_file' });
        thread.push({ role: 'tool', content: 'p'.repeat(100), tool_call_id: `c${i}b`, name: 'grep' });
      }
      const llm = createScriptedLlm([summaryTurn('S')]);
      const s = setup(thread, llm, { contextWindow: 1_000, compaction: { strategy: 'summarization' } });
      const out = await s.call();
      const called = new Set<string>();
      for (const m of out) {
        m.tool_calls?.forEach((tc) => called.add(tc.id));
        if (m.role === 'tool') expect(called.has(m.tool_call_id!)).toBe(true);
      }
      expect(out[0]).toBe(SYSTEM);
    }
  });
});

describe('SummarizationHook failures', () => {
  it('passes the messages through unchanged when the summary call throws or breaks off', async () => {
    for (const turn of [{ throw: new Error('boom') }, { text: 'partial', interrupted: true }, { text: '   ' }]) {
      const thread = chat(30);
      const llm = createScriptedLlm([turn]);
      const s = setup(thread, llm, { contextWindow: 1_000, compaction: { strategy: 'summarization' } });
      const out = await s.call();
      expect(out).toEqual([SYSTEM, ...thread]);
      expect(s.traceEvents).toContain('compaction_failed');
      expect(s.events.map((e) => e.event)).toEqual(['on_hook_end']);
      expect(s.events[0].data).toMatchObject({ hook: 'summarization', ok: false, decision: 'compaction_failed' });
    }
  });

  it('announces the compaction to the hooks and skips it when a PreCompact hook vetoes', async () => {
    for (const veto of [false, true]) {
      const thread = chat(30);
      const llm = createScriptedLlm([summaryTurn('the gist')]);
      const s = setup(thread, llm, { contextWindow: 1_000, compaction: { strategy: 'summarization' } });
      const notices: string[] = [];
      (s.ctx as { notifyCompaction?: unknown }).notifyCompaction = async (n: { phase: string; trigger: string; summary?: string }) => {
        notices.push(`${n.phase}:${n.trigger}:${n.summary ?? ''}`);
        return { blocked: veto && n.phase === 'pre', reason: 'keep everything' };
      };
      const out = await s.call();
      if (veto) {
        expect(out).toEqual([SYSTEM, ...thread]);
        expect(notices).toEqual(['pre:auto:']);
        expect(s.events[0].data).toMatchObject({ decision: 'compaction_failed', reason: 'compaction blocked: keep everything' });
      } else {
        expect(out.length).toBeLessThan(thread.length);
        expect(notices).toEqual(['pre:auto:', 'post:auto:the gist']);
      }
    }
  });

  it('lets an abort propagate', async () => {
    const abort = Object.assign(new Error('aborted'), { name: 'AbortError' });
    const s = setup(chat(30), createScriptedLlm([{ throw: abort }]), { contextWindow: 1_000, compaction: { strategy: 'summarization' } });
    await expect(s.call()).rejects.toThrow('aborted');
  });
});

describe('SummarizationHook hybrid strategy', () => {
  const toolThread = (): Message[] => {
    const t: Message[] = [user('go')];
    for (let i = 0; i < 10; i++) {
      t.push({ role: 'assistant', content: '', tool_calls: [{ id: `c${i}`, name: 'read_file', args: { path: `f${i}` } }] });
      t.push({ role: 'tool', content: String(i).repeat(800), tool_call_id: `c${i}`, name: 'read_file' });
    }
    t.push(assistant('done'));
    return t;
  };

  it('prunes old tool outputs and stops as soon as the request is under target_tokens', async () => {
    const thread = toolThread();
    const total = estimateTokens([SYSTEM, ...thread]);
    const llm = createScriptedLlm([]);
    // Pruning one 800-char output saves ~194 tokens; ask for three of them.
    const s = setup(thread, llm, { contextWindow: 2_000, compaction: { strategy: 'hybrid', target_tokens: total - 3 * 190, trigger: 0.5 } });
    const out = await s.call();
    expect(llm.calls).toHaveLength(0);
    const pruned = out.filter((m) => m.content === '[output pruned: 800 chars]');
    expect(pruned.map((m) => m.tool_call_id)).toEqual(['c0', 'c1', 'c2']);
    expect(out.find((m) => m.tool_call_id === 'c3')!.content).toBe('3'.repeat(800));
    expect(out).toHaveLength(thread.length + 1);
    expect(s.events[0].data).toMatchObject({ summarized_messages: 0 });
    expect(thread[2].content).toBe('0'.repeat(800));
  });

  it('summarizes the pruned messages when pruning is not enough', async () => {
    const thread = toolThread();
    const llm = createScriptedLlm([summaryTurn('S')]);
    const s = setup(thread, llm, { contextWindow: 2_000, compaction: { strategy: 'hybrid', target_tokens: 100, trigger: 0.5 } });
    const out = await s.call();
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0].request.messages[0].content).toContain('[output pruned: 800 chars]');
    expect(out[1].content).toBe(`${SUMMARY_PREFIX}\nS`);
  });
});

describe('SummarizationHook stored summary', () => {
  it('stores the summary keyed to the thread messages it covers and reuses it on the next call', async () => {
    const store = fakeStore();
    const thread = chat(40);
    const llm = createScriptedLlm([summaryTurn('S1')]);
    const s = setup(thread, llm, { contextWindow: 4_000, compaction: { strategy: 'summarization' }, store });
    const first = await s.call();
    expect(store.saved).toEqual([{ upto: 36, content: 'S1', created_at: 1_000 }]);
    thread.push(user('next question'), assistant('next answer'));
    const second = await s.call();
    expect(llm.calls).toHaveLength(1);
    expect(second).toEqual([...first, user('next question'), assistant('next answer')]);
    expect(s.events.filter((e) => e.event === 'on_compaction')).toHaveLength(1);

    // Grow past the trigger again: the new summary folds in the old one and covers more.
    thread.push(...chat(40));
    llm.push(summaryTurn('S2'));
    const third = await s.call();
    expect(llm.calls).toHaveLength(2);
    expect(llm.calls[1].request.messages[0].content).toContain(`${SUMMARY_PREFIX}\nS1`);
    expect(third[1].content).toBe(`${SUMMARY_PREFIX}\nS2`);
    expect(store.saved[1].upto).toBe(thread.length - (third.length - 2));
    expect(third.slice(2)).toEqual(thread.slice(store.saved[1].upto));
  });

  it('works without a store (in-memory) and is deterministic for the same answers', async () => {
    const runTwice = async () => {
      const thread = chat(40);
      const llm = createScriptedLlm([summaryTurn('S')]);
      const s = setup(thread, llm, { contextWindow: 4_000, compaction: { strategy: 'summarization' } });
      const a = await s.call();
      const b = await s.call();
      expect(llm.calls).toHaveLength(1);
      expect(b).toEqual(a);
      return a;
    };
    expect(await runTwice()).toEqual(await runTwice());
  });

  it('maps the request onto the thread when a hook appended a message, and not when messages are missing', async () => {
    const store = fakeStore();
    const thread = chat(40);
    const llm = createScriptedLlm([summaryTurn('S'), summaryTurn('T')]);
    const s = setup(thread, llm, { contextWindow: 4_000, compaction: { strategy: 'summarization' }, store });
    const hook = createSummarizationHook({ contextWindow: 4_000, compaction: { strategy: 'summarization' }, store });
    const send = async (msgs: Message[]) => {
      let sent: Message[] = [];
      await hook.wrapModelCall!(s.ctx, requestOf(msgs.slice(1), [msgs[0].content]), async (req) => {
        sent = [msgs[0], ...req.messages];
        return { content: '', tool_calls: [] };
      });
      return sent;
    };
    const appended = await send([SYSTEM, ...thread, user('appended by a hook')]);
    // 41 messages after the system one: 4 kept, so thread messages [0, 37) are summarized
    expect(store.saved.map((x) => x.upto)).toEqual([37]);
    expect(appended.slice(2)).toEqual([...thread.slice(37), user('appended by a hook')]);
    // Messages dropped from the request: no index is trustworthy, so nothing is applied or stored.
    const dropped = await send([SYSTEM, ...thread.slice(5)]);
    expect(llm.calls).toHaveLength(2);
    expect(llm.calls[1].request.messages[0].content).not.toContain(SUMMARY_PREFIX);
    expect(dropped[1].content).toBe(`${SUMMARY_PREFIX}\nT`);
    expect(store.saved).toHaveLength(1);
  });

  it('ignores a stored summary that no longer fits the thread', async () => {
    const store = fakeStore();
    store.setCompaction('t1', { upto: 500, content: 'stale', created_at: 0 });
    const thread = chat(10, 40);
    const s = setup(thread, createScriptedLlm([]), { contextWindow: 100_000, store });
    expect(await s.call()).toEqual([SYSTEM, ...thread]);
  });
});

describe('SummarizationHook file contents', () => {
  it('cuts write_file content in old messages to 2,000 chars before summarizing', async () => {
    const big = 'w'.repeat(6_000);
    const thread: Message[] = [
      user('write it'),
      { role: 'assistant', content: '', tool_calls: [{ id: 'w1', name: 'write_file', args: { path: 'a.txt', content: big }, raw_args: JSON.stringify({ path: 'a.txt', content: big }) }] },
      { role: 'tool', content: 'wrote a.txt', tool_call_id: 'w1', name: 'write_file' },
      ...chat(24, 200),
    ];
    const seen: ModelRequest[] = [];
    const llm: LlmClient = {
      chat: async (req): Promise<LlmResponse> => {
        seen.push(req);
        return { content: 'S', tool_calls: [] };
      },
    };
    const s = setup(thread, llm, { contextWindow: 5_000, compaction: { strategy: 'summarization', trigger: 0.5 } });
    await s.call();
    expect(seen).toHaveLength(1);
    const transcript = seen[0].messages[0].content;
    expect(transcript).toContain('w'.repeat(2_000));
    expect(transcript).not.toContain('w'.repeat(2_001));
    expect(transcript).toContain('more chars cut from this old message');
    expect(thread[1].tool_calls![0].args.content).toBe(big);
  });
});

describe('compactThreadNow', () => {
  it('summarizes a short thread on demand, stores it, and reports too-short threads', async () => {
    const store = fakeStore();
    const llm = createScriptedLlm([summaryTurn('forced')]);
    const state = { thread_id: 't9', messages: chat(12, 20) };
    const r = await compactThreadNow({ store, llm, model: 'm', state, now: () => 5 });
    expect(r).toMatchObject({ compacted: true, upto: 10, summarized_messages: 10 });
    expect(store.getCompaction('t9')).toEqual({ upto: 10, content: 'forced', created_at: 5 });
    expect(await compactThreadNow({ store, llm, model: 'm', state: { thread_id: 'x', messages: chat(2) } })).toMatchObject({ compacted: false });
    await expect(compactThreadNow({ store, llm: createScriptedLlm([{ throw: new Error('down') }]), model: 'm', state })).rejects.toThrow(/compaction failed: down/);
  });
});

/**
 * Pure compaction strategies (docs/memory.md): where to split old from
 * recent messages without orphaning a tool result, file-content truncation, tool-output pruning and
 * the summarization request. No I/O here; summarization.ts drives these.
 */
import type { Message } from '../../shared/types/index.ts';
import {
  DEFAULT_CONTEXT_WINDOW,
  KEEP_RATIO,
  MIN_KEEP_MESSAGES,
  OLD_MESSAGE_TRUNCATION,
  SUMMARIZATION_TRIGGER,
  SUMMARY_MAX_WORDS,
} from '../../shared/constants.ts';
import type { ModelRequest } from '../llm/types.ts';
import { estimateMessageTokens, estimateTokens } from '../agent/tokens.ts';
import { sharedPrefixLength } from '../agent/prefix-sum.ts';

export type CompactionStrategy = 'hybrid' | 'summarization';

/** Compaction settings as written in agent.yaml (docs/memory.md); all optional. */
export interface CompactionConfig {
  strategy?: CompactionStrategy;
  /** Fraction of the context window that triggers compaction (default 0.85). */
  trigger?: number;
  /** Hybrid: pruning alone is enough when the request falls to this many tokens (default 62.5 % of the window). */
  target_tokens?: number;
  /** Always keep at least the last N messages verbatim. */
  preserve_last_n?: number;
  /** Always keep at least the last N tokens verbatim. */
  protected_tokens?: number;
}

/** `CompactionConfig` with every default filled in for one context window. */
export interface ResolvedCompaction {
  contextWindow: number;
  strategy: CompactionStrategy;
  trigger: number;
  target_tokens: number;
  preserve_last_n: number;
  protected_tokens: number;
}

export const SUMMARY_PREFIX = '[Summary of earlier conversation]';
/** 80,000 of 128,000 in AgentPG's defaults. */
const TARGET_RATIO = 0.625;
/** The arguments of a tool that carry file content (the tool's `contentArgs`); undefined for none. */
export type ContentArgsOf = (toolName: string) => readonly string[] | undefined;
const PRUNED = /^\[output pruned: \d+ chars\]$/;
/** Per-message cap inside the summarization transcript, so one huge output cannot crowd out the rest. */
const TRANSCRIPT_MESSAGE_CHARS = 8_000;

/** Fills in defaults (trigger 0.85, hybrid, target 62.5 % of the window); nonsense values fall back to them. */
export function resolveCompaction(
  contextWindow: number | undefined,
  c: CompactionConfig = {},
): ResolvedCompaction {
  const window = contextWindow && contextWindow > 0 ? contextWindow : DEFAULT_CONTEXT_WINDOW;
  const trigger = c.trigger && c.trigger > 0 && c.trigger <= 1 ? c.trigger : SUMMARIZATION_TRIGGER;
  return {
    contextWindow: window,
    strategy: c.strategy ?? 'hybrid',
    trigger,
    target_tokens:
      c.target_tokens && c.target_tokens > 0 ? c.target_tokens : Math.floor(window * TARGET_RATIO),
    preserve_last_n: Math.max(0, c.preserve_last_n ?? 0),
    protected_tokens: Math.max(0, c.protected_tokens ?? 0),
  };
}

/** Number of system messages at the front; they are never compacted. */
export function leadingSystemCount(msgs: readonly Message[]): number {
  let i = 0;
  while (i < msgs.length && msgs[i].role === 'system') i++;
  return i;
}

/**
 * Index of the first "recent" message: the last 10 % of the messages after `lead` (at least 2, at
 * least `preserveLastN`, at least `protectedTokens` worth), moved earlier so that recent never starts
 * with a tool message and every tool result stays with the assistant message that called it.
 * Contract: returns a value in [lead, msgs.length]; a value equal to `lead` means nothing to compact.
 */
export function findSplit(
  msgs: readonly Message[],
  lead: number,
  opts: { preserveLastN?: number; protectedTokens?: number } = {},
): number {
  const n = msgs.length;
  const keep = Math.max(
    MIN_KEEP_MESSAGES,
    Math.floor((n - lead) * KEEP_RATIO),
    opts.preserveLastN ?? 0,
  );
  let split = n - keep;
  if (split <= lead) return lead;
  if (opts.protectedTokens) {
    let recent = 0;
    for (let j = split; j < n; j++) recent += estimateMessageTokens(msgs[j]);
    while (split > lead && recent < opts.protectedTokens)
      recent += estimateMessageTokens(msgs[--split]);
  }
  const owner = toolOwners(msgs);
  for (let changed = true; changed && split > lead;) {
    changed = false;
    while (split > lead && msgs[split]?.role === 'tool') {
      split--;
      changed = true;
    }
    for (let j = split; j < n; j++) {
      const o = owner[j];
      if (o !== undefined && o < split) {
        split = Math.max(lead, o);
        changed = true;
      }
    }
  }
  return split;
}

/** The owners computed for the last message array of one chain, and the calls seen up to its end. */
interface OwnerChain {
  refs: Message[];
  owners: Array<number | undefined>;
  callers: Map<string, number>;
}

/** By the chain's first message: a thread that grew since the last call only has its new messages read. */
const ownerChains = new WeakMap<Message, OwnerChain>();

/**
 * For each tool message, the index of the latest earlier assistant message that made its call.
 * The answer is shared with later calls on the same chain: callers must not change it.
 */
function toolOwners(msgs: readonly Message[]): ReadonlyArray<number | undefined> {
  if (msgs.length === 0) return [];
  let chain = ownerChains.get(msgs[0]);
  if (!chain || sharedPrefixLength(msgs, chain.refs) !== chain.refs.length) {
    chain = { refs: [], owners: [], callers: new Map() };
    ownerChains.set(msgs[0], chain);
  }
  const { refs, owners, callers } = chain;
  for (let i = refs.length; i < msgs.length; i++) {
    const m = msgs[i];
    if (m.role === 'assistant') for (const tc of m.tool_calls ?? []) callers.set(tc.id, i);
    refs.push(m);
    owners.push(
      m.role === 'tool' && m.tool_call_id !== undefined ? callers.get(m.tool_call_id) : undefined,
    );
  }
  return owners;
}

/** Cut copies by original, with what they were cut by (content arguments per call, `max`). */
const truncatedCopies = new WeakMap<Message, { by: string; copy: Message }>();

/**
 * Cuts the file-content arguments of old tool calls (each tool's `contentArgs`) to `max` chars.
 * Contract: returns the same object when nothing was cut, else a copy (the input is never mutated),
 * the same copy again for the same message cut the same way, so a round that cuts it again sends
 * the same object.
 */
export function truncateFileArgs(
  m: Message,
  contentArgs: ContentArgsOf,
  max = OLD_MESSAGE_TRUNCATION,
): Message {
  if (!m.tool_calls?.some((tc) => contentArgs(tc.name)?.length)) return m;
  const by = `${max}|${m.tool_calls.map((tc) => contentArgs(tc.name)?.join(',') ?? '').join(';')}`;
  const known = truncatedCopies.get(m);
  if (known?.by === by) return known.copy;
  const copy = cutFileArgs(m, contentArgs, max);
  if (copy !== m) truncatedCopies.set(m, { by, copy });
  return copy;
}

function cutFileArgs(m: Message, contentArgs: ContentArgsOf, max: number): Message {
  if (!m.tool_calls) return m;
  let changed = false;
  const toolCalls = m.tool_calls.map((tc) => {
    const keys = contentArgs(tc.name);
    if (!keys?.length) return tc;
    const args: Record<string, unknown> = { ...tc.args };
    let cut = false;
    for (const key of keys) {
      const v = args[key];
      if (typeof v === 'string' && v.length > max) {
        args[key] =
          `${v.slice(0, max)}\n[… ${v.length - max} more chars cut from this old message]`;
        cut = true;
      }
    }
    if (!cut) return tc;
    changed = true;
    // raw_args must shrink too: the token estimate reads it first.
    return { ...tc, args, raw_args: JSON.stringify(args) };
  });
  return changed ? { ...m, tool_calls: toolCalls } : m;
}

/**
 * Hybrid step one: replaces the content of tool messages in [from, to), oldest first, with
 * `[output pruned: N chars]` until the whole conversation is at or under `targetTokens`.
 * Contract: never mutates `msgs`; returns how many outputs were pruned.
 */
export function pruneToolOutputs(
  msgs: readonly Message[],
  from: number,
  to: number,
  targetTokens: number,
): { messages: Message[]; pruned: number } {
  const out = msgs.slice();
  let total = estimateTokens(out);
  let pruned = 0;
  for (let i = from; i < to && total > targetTokens; i++) {
    const m = out[i];
    if (m.role !== 'tool' || PRUNED.test(m.content)) continue;
    const replaced = prunedCopy(m);
    if (!replaced) continue;
    total += estimateMessageTokens(replaced) - estimateMessageTokens(m);
    out[i] = replaced;
    pruned++;
  }
  return { messages: out, pruned };
}

/** Pruned copies by original: a round that prunes the same outputs again sends the same objects. */
const prunedCopies = new WeakMap<Message, Message>();

/** `m` with its output replaced by `[output pruned: N chars]`; undefined when that is not shorter. */
function prunedCopy(m: Message): Message | undefined {
  let copy = prunedCopies.get(m);
  if (!copy) {
    const placeholder = `[output pruned: ${m.content.length} chars]`;
    if (placeholder.length >= m.content.length) return undefined;
    copy = { ...m, content: placeholder };
    prunedCopies.set(m, copy);
  }
  return copy;
}

/** The one message that stands for the summarized part of the conversation. */
export function summaryMessage(summary: string): Message {
  // A 'user' message: strict servers reject a second system message after the conversation began.
  return { role: 'user', content: `${SUMMARY_PREFIX}\n${summary.trim()}` };
}

export const SUMMARY_INSTRUCTIONS = `You summarize the earlier part of a coding agent's conversation so that the agent can continue the work without it.
Write a summary of fewer than ${groupThousands(SUMMARY_MAX_WORDS)} words that preserves:
- the user's goals, requirements and constraints;
- decisions made and why;
- files read, created or modified (with paths) and what changed in them;
- commands run and their important results, errors met and how they were resolved;
- open tasks, unanswered questions and the next steps.
Be factual and specific; never invent anything. If the conversation starts with an earlier summary, fold it in. Output only the summary.`;

/** The model request that asks for a summary of `old` (no tools). */
export function summarizationRequest(
  old: readonly Message[],
  model: string,
  contextWindow: number,
): ModelRequest {
  return {
    model,
    system: [SUMMARY_INSTRUCTIONS],
    tools: [],
    messages: [
      {
        role: 'user',
        content: `<conversation>\n${renderTranscript(old, contextWindow)}\n</conversation>`,
      },
    ],
    params: {},
  };
}

/**
 * Plain-text transcript of `msgs` for the summarizer, each message capped, and the oldest messages
 * left out (an earlier summary excepted) when the whole would not fit in ~70 % of the window.
 */
export function renderTranscript(msgs: readonly Message[], contextWindow: number): string {
  const parts = msgs.map(renderMessage);
  const budget = Math.floor(contextWindow * 4 * 0.7);
  const keepFirst = msgs[0]?.content.startsWith(SUMMARY_PREFIX) ? 1 : 0;
  let total = parts.reduce((s, p) => s + p.length + 2, 0);
  let start = keepFirst;
  while (total > budget && start < parts.length - 1) total -= parts[start++].length + 2;
  const omitted = start - keepFirst;
  const kept = [
    ...parts.slice(0, keepFirst),
    ...(omitted ? [`[${omitted} earlier messages omitted]`] : []),
    ...parts.slice(start),
  ];
  return kept.join('\n\n');
}

function renderMessage(m: Message): string {
  const label =
    m.role === 'tool'
      ? `[Tool result: ${m.name ?? 'tool'}]`
      : `[${m.role[0].toUpperCase()}${m.role.slice(1)}]`;
  const calls = (m.tool_calls ?? []).map(
    (tc) =>
      `→ ${tc.name}(${cap(tc.raw_args ?? JSON.stringify(tc.args), 2 * OLD_MESSAGE_TRUNCATION)})`,
  );
  return [label, ...(m.content ? [cap(m.content, TRANSCRIPT_MESSAGE_CHARS)] : []), ...calls].join(
    '\n',
  );
}

function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = Math.floor(max / 4);
  return `${text.slice(0, max - tail)}\n[… ${text.length - max} chars cut …]\n${text.slice(text.length - tail)}`;
}

/** 2000 → "2,000" without Intl: toLocaleString loads ICU's locale data, ~30 ms at start-up. */
function groupThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The summarization middleware (hybrid strategy): innermost `wrapModelCall` that keeps the request
 * under the context window, and the owner of `callback: "compact"` (its `compactThread`). The stored
 * thread keeps its full history; a summary is stored per thread (`upto` = thread messages it covers)
 * and reused until the next compaction.
 */
import type { Message, StreamEventData } from '../../shared/types/index.ts';
import type { Hook, MiddlewareInfo, RunContext } from '../pipeline/hook.ts';
import { isAbortError } from '../abort.ts';
import { estimateTokens } from '../agent/tokens.ts';
import type { LlmClient } from '../llm/types.ts';
import { createFilesystemTools } from '../tools/index.ts';
import type { CompactionSummary, ThreadStore } from '../store/types.ts';
import type { TraceRecorder } from '../tracing/types.ts';
import {
  findSplit,
  leadingSystemCount,
  pruneToolOutputs,
  resolveCompaction,
  summarizationRequest,
  summaryMessage,
  truncateFileArgs,
  type CompactionConfig,
  type ContentArgsOf,
  type ResolvedCompaction,
} from './compaction.ts';
import { errorMessage } from '../errors.ts';

/** The workspace tools by name, for a compaction outside a run (`workbench compact`), which has no registry. */
const BUILTIN_TOOLS = new Map(createFilesystemTools().map((t) => [t.name, t]));

export type CompactionStore = Pick<ThreadStore, 'getCompaction' | 'setCompaction'>;

export interface SummarizationHookOptions {
  /** Tokens (default 128,000). */
  contextWindow?: number;
  compaction?: CompactionConfig;
  /** Where summaries persist; without it they live in this hook's memory for the process lifetime. */
  store?: CompactionStore;
  now?: () => number;
}

export type CompactionEvent = StreamEventData['on_compaction'];

/** What one compaction pass decided. */
export interface CompactionOutcome {
  messages: Message[];
  /** Set when the pass did work (pruning or a new summary). */
  event?: CompactionEvent;
  /** A new summary to store. */
  summary?: CompactionSummary;
  /** Why summarizing failed; `messages` are then the input (with any stored summary applied). */
  failed?: string;
}

export interface CompactInput {
  /** The request's messages as they reach the hook. */
  messages: readonly Message[];
  /** Tokens the request spends outside `messages` (its system blocks), counted against the window. */
  reservedTokens?: number;
  /** The stored thread the request was built from; enables storing and reusing summaries. */
  threadMessages?: readonly Message[];
  stored?: CompactionSummary;
  config: ResolvedCompaction;
  /** Ignore the trigger and summarize now (`workbench compact`, lifecycle callback "compact"). */
  force?: boolean;
  summarize: (old: Message[]) => Promise<string>;
  /** Which arguments of a tool carry file content (cut in old messages). */
  contentArgs: ContentArgsOf;
  now?: () => number;
}

/**
 * One compaction pass: apply the stored summary, then — over the trigger or forced — truncate old
 * file contents, prune old tool outputs (hybrid, unforced) and, if still needed, summarize.
 * Contract: never mutates its input; leading system messages are kept as they are; a tool result is
 * never separated from its call; a failed summary leaves `messages` as they were (`failed` set);
 * aborts propagate.
 */
export async function compactMessages(input: CompactInput): Promise<CompactionOutcome> {
  const { config } = input;
  // Only an outcome with an event reports it: not computed on the common path (an O(thread) pass per round).
  const reserved = input.reservedTokens ?? 0;
  const beforeTokens = () => reserved + estimateTokens(input.messages);
  const { working, threadIndex } = applyStored(input);
  if (!input.force && reserved + estimateTokens(working) <= config.trigger * config.contextWindow)
    return { messages: working };

  const lead = leadingSystemCount(working);
  const split = findSplit(working, lead, {
    preserveLastN: config.preserve_last_n,
    protectedTokens: config.protected_tokens,
  });
  if (split <= lead) return { messages: working };

  const truncated = working.map((m, i) =>
    i >= lead && i < split ? truncateFileArgs(m, input.contentArgs) : m,
  );
  let candidate = truncated;
  if (config.strategy === 'hybrid' && !input.force) {
    candidate = pruneToolOutputs(truncated, lead, split, config.target_tokens - reserved).messages;
    const tokens = reserved + estimateTokens(candidate);
    if (tokens <= config.target_tokens) {
      return {
        messages: candidate,
        event: { before_tokens: beforeTokens(), after_tokens: tokens, summarized_messages: 0 },
      };
    }
  }

  let text: string;
  try {
    text = await input.summarize(candidate.slice(lead, split));
  } catch (err) {
    if (isAbortError(err)) throw err;
    return { messages: working, failed: errorMessage(err) };
  }
  const messages = [...working.slice(0, lead), summaryMessage(text), ...working.slice(split)];
  const upto = threadIndex(split);
  const summary =
    upto !== undefined && upto > 0
      ? { upto, content: text, created_at: (input.now ?? Date.now)() }
      : undefined;
  return {
    messages,
    summary,
    event: {
      before_tokens: beforeTokens(),
      after_tokens: reserved + estimateTokens(messages),
      summarized_messages: split - lead,
    },
  };
}

/**
 * Replaces the thread messages [0, upto) by the stored summary (after the leading system messages);
 * `threadIndex(j)` maps working message j back to its thread index (-1: injected or summary).
 */
function applyStored(input: CompactInput): {
  working: Message[];
  threadIndex: (j: number) => number;
} {
  const msgs = input.messages;
  const thread = input.threadMessages;
  const offset = thread ? findOffset(msgs, thread) : undefined;
  const indexOf = (j: number) => (offset !== undefined && j >= offset ? j - offset : -1);
  const all = () => ({
    working: msgs.slice(),
    threadIndex: (j: number) => (j < msgs.length ? indexOf(j) : -1),
  });
  const stored = input.stored;
  if (!stored || offset === undefined || stored.upto <= 0 || stored.upto >= thread!.length)
    return all();
  const first = stored.upto + offset;
  // The stored split never starts with a tool message; if it does now, the thread was rewritten.
  if (msgs[first]?.role === 'tool') return all();
  const lead = leadingSystemCount(msgs);
  // Only the kept tail is copied: with a stored summary a round costs O(messages since the summary).
  const from = Math.max(lead, first);
  const working = [
    ...msgs.slice(0, lead),
    storedSummaryMessage(stored.content),
    ...msgs.slice(from),
  ];
  return {
    working,
    threadIndex: (j) =>
      j < lead ? indexOf(j) : j === lead || j >= working.length ? -1 : indexOf(from + j - lead - 1),
  };
}

/** Summary messages of recent stored summaries by text; a few threads may run side by side. */
const summaryMessages = new Map<string, Message>();
const SUMMARY_MESSAGES_KEPT = 16;

/**
 * The message standing for a stored summary, the same object while the summary text is the same, so
 * what is remembered per message (token counts, request JSON) carries over from round to round.
 */
function storedSummaryMessage(content: string): Message {
  let message = summaryMessages.get(content);
  if (!message) {
    message = summaryMessage(content);
    summaryMessages.set(content, message);
    if (summaryMessages.size > SUMMARY_MESSAGES_KEPT)
      summaryMessages.delete(summaryMessages.keys().next().value!);
  }
  return message;
}

/**
 * Where thread message 0 sits in the request's messages: usually 0; a hook before us may have added
 * messages at the front or the end; anything else and the request cannot be mapped.
 */
function findOffset(msgs: readonly Message[], thread: readonly Message[]): number | undefined {
  const candidates = [
    msgs.length - thread.length,
    leadingSystemCount(msgs) - leadingSystemCount(thread),
  ];
  return candidates.find(
    (offset) =>
      offset >= 0 && offset + thread.length <= msgs.length && mapsOnto(msgs, thread, offset),
  );
}

/**
 * True when `msgs[offset + k]` is thread message k (same role and tool call id) for every k.
 * The request usually holds the thread's own message objects: those are matched by identity alone,
 * without reading their fields.
 */
function mapsOnto(msgs: readonly Message[], thread: readonly Message[], offset: number): boolean {
  for (let k = 0; k < thread.length; k++) {
    const a = msgs[offset + k];
    const m = thread[k];
    if (a !== m && (a.role !== m.role || a.tool_call_id !== m.tool_call_id)) return false;
  }
  return true;
}

/** Asks `llm` for a summary of `old`; rejects on an empty or broken answer. */
export async function summarizeWith(
  llm: LlmClient,
  model: string,
  old: Message[],
  opts: { signal: AbortSignal; contextWindow: number; trace?: TraceRecorder },
): Promise<string> {
  const call = async () => {
    const res = await llm.chat(summarizationRequest(old, model, opts.contextWindow), {
      signal: opts.signal,
    });
    if (res.interrupted)
      throw new Error(`the summary broke off: ${res.error ?? 'stream interrupted'}`);
    const text = res.content.trim();
    if (!text) throw new Error('the model returned an empty summary');
    return text;
  };
  const trace = opts.trace;
  if (!trace) return call();
  const span = trace.startSpan(`chat ${model}`, 'llm', {
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': model,
    'workbench.purpose': 'summarization',
  });
  try {
    return await trace.withSpan(span, call);
  } catch (err) {
    span.fail(err instanceof Error ? err.name : 'error', errorMessage(err));
    throw err;
  } finally {
    span.end();
  }
}

export const summarizationInfo: MiddlewareInfo = {
  name: 'summarization',
  description: 'Compacts the conversation near the context window, and on `callback: "compact"`',
  phases: ['wrap_model_call', 'compact_thread'],
};

/**
 * The summarization hook: compacts the request in `wrapModelCall` when it exceeds
 * trigger × contextWindow, then calls `next`; `compactThread` compacts the stored thread now.
 * Contract: never touches the system blocks, never orphans a tool result, deterministic for the same
 * LLM answers; a failed summary passes the messages through and records `compaction_failed`; a
 * failed `compactThread` rejects (the runner reports it) and stores nothing.
 */
export function createSummarizationHook(opts: SummarizationHookOptions = {}): Hook {
  const config = resolveCompaction(opts.contextWindow, opts.compaction);
  const memory = new Map<string, CompactionSummary>();
  const store: CompactionStore = opts.store ?? {
    getCompaction: (id) => memory.get(id),
    setCompaction: (id, s) => void memory.set(id, s),
  };

  return {
    name: summarizationInfo.name,
    source: 'builtin',
    description: summarizationInfo.description,
    async wrapModelCall(ctx, req, next) {
      const started = Date.now();
      const outcome = await compactMessages({
        messages: req.messages,
        reservedTokens: Math.ceil(req.system.reduce((n, block) => n + block.length, 0) / 4),
        threadMessages: ctx.state.messages,
        stored: readStored(store, ctx),
        config,
        contentArgs: (name) => ctx.tools.get(name)?.contentArgs,
        summarize: (old) =>
          summarizeAnnounced(ctx, 'auto', () =>
            summarizeWith(ctx.llm, ctx.model, old, {
              signal: ctx.signal,
              contextWindow: config.contextWindow,
              trace: ctx.trace,
            }),
          ),
        now: opts.now,
      });
      report(ctx, store, outcome, Date.now() - started);
      return next({ ...req, messages: outcome.messages });
    },
    async compactThread(ctx) {
      const result = await compactThreadNow({
        store,
        llm: ctx.llm,
        model: ctx.model,
        state: ctx.state,
        contextWindow: config.contextWindow,
        compaction: opts.compaction,
        signal: ctx.signal,
        trace: ctx.trace,
        now: opts.now,
        ctx,
      });
      if (!result.compacted) return;
      const event = {
        before_tokens: result.before_tokens,
        after_tokens: result.after_tokens,
        summarized_messages: result.summarized_messages,
      };
      ctx.emit({ event: 'on_compaction', data: event });
      ctx.trace?.recordEvent('compaction', { ...event });
    },
  };
}

/**
 * Runs a summarization between the hooks' pre and post compaction notices; a vetoed 'pre' fails
 * the summary, so the request passes through unchanged.
 */
export async function summarizeAnnounced(
  ctx: RunContext,
  trigger: 'auto' | 'manual',
  summarize: () => Promise<string>,
): Promise<string> {
  const pre = await ctx.notifyCompaction?.({ phase: 'pre', trigger });
  if (pre?.blocked) throw new Error(`compaction blocked: ${pre.reason ?? 'by a hook'}`);
  const text = await summarize();
  await ctx.notifyCompaction?.({ phase: 'post', trigger, summary: text });
  return text;
}

function readStored(store: CompactionStore, ctx: RunContext): CompactionSummary | undefined {
  try {
    return store.getCompaction(ctx.threadId);
  } catch (err) {
    ctx.trace?.recordEvent('compaction_store_error', { message: errorMessage(err) });
    return undefined;
  }
}

function report(
  ctx: RunContext,
  store: CompactionStore,
  outcome: CompactionOutcome,
  durationMs: number,
): void {
  if (outcome.summary) {
    try {
      store.setCompaction(ctx.threadId, outcome.summary);
    } catch (err) {
      // The summary still serves this call; it is only recomputed next time.
      ctx.trace?.recordEvent('compaction_store_error', { message: errorMessage(err) });
    }
  }
  if (outcome.event) {
    ctx.emit({ event: 'on_compaction', data: outcome.event });
    ctx.trace?.recordEvent('compaction', { ...outcome.event });
  }
  if (outcome.failed) {
    ctx.trace?.recordEvent('compaction_failed', { message: outcome.failed });
    // A diagnostic, not an `error` event: the run goes on with the full history.
    ctx.emit({
      event: 'on_hook_end',
      data: {
        hook: 'summarization',
        event: 'wrap_model_call',
        decision: 'compaction_failed',
        reason: outcome.failed,
        duration_ms: durationMs,
        ok: false,
      },
    });
  }
}

export interface CompactThreadNowArgs {
  store: CompactionStore;
  llm: LlmClient;
  model: string;
  /** The thread (`thread_id`, `messages`). */
  state: { thread_id: string; messages: readonly Message[] };
  contextWindow?: number;
  compaction?: CompactionConfig;
  signal?: AbortSignal;
  trace?: TraceRecorder;
  now?: () => number;
  /** The run asking for it (lifecycle callback "compact"): its hooks get the PreCompact/PostCompact notices. */
  ctx?: RunContext;
}

export interface CompactThreadResult extends CompactionEvent {
  compacted: boolean;
  /** Thread messages the stored summary now covers. */
  upto?: number;
}

/**
 * Forced compaction of a stored thread (`workbench compact`, lifecycle callback "compact"): summarizes
 * all but the recent messages and stores the summary; the thread itself is left whole.
 * Contract: rejects when the summary fails (nothing stored); resolves `compacted: false` when the
 * thread is too short to compact.
 */
export async function compactThreadNow(args: CompactThreadNowArgs): Promise<CompactThreadResult> {
  const config = resolveCompaction(args.contextWindow, args.compaction);
  const signal = args.signal ?? new AbortController().signal;
  const before = estimateTokens(args.state.messages);
  const outcome = await compactMessages({
    messages: args.state.messages,
    threadMessages: args.state.messages,
    stored: args.store.getCompaction(args.state.thread_id),
    config,
    force: true,
    contentArgs: (name) => (args.ctx?.tools ?? BUILTIN_TOOLS).get(name)?.contentArgs,
    summarize: (old) => {
      const run = () =>
        summarizeWith(args.llm, args.model, old, {
          signal,
          contextWindow: config.contextWindow,
          trace: args.trace,
        });
      return args.ctx ? summarizeAnnounced(args.ctx, 'manual', run) : run();
    },
    now: args.now,
  });
  if (outcome.failed) throw new Error(`compaction failed: ${outcome.failed}`);
  if (!outcome.summary || !outcome.event) {
    return {
      compacted: false,
      before_tokens: before,
      after_tokens: estimateTokens(outcome.messages),
      summarized_messages: 0,
    };
  }
  args.store.setCompaction(args.state.thread_id, outcome.summary);
  return { compacted: true, upto: outcome.summary.upto, ...outcome.event };
}

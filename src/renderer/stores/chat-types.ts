/** The renderer's view of threads and runs, built only by applyEvent / loadThread. */
import type {
  ElicitationRequestView,
  Message,
  StreamEventData,
  Todo,
  ToolCall,
  ToolStatus,
  Usage,
} from '../../shared/types/index.ts';
import { EMPTY_STREAM, type StreamText } from './stream-text.ts';

/** How a call that ended is shown: the tool's own status, with `ok` named `done` in the UI. */
export type ToolEndStatus = Exclude<ToolStatus, 'ok'> | 'done';

/** Where a tool card stands: still going, or how it ended. */
export type ToolRunStatus = 'pending' | 'awaiting_approval' | 'running' | ToolEndStatus;

/** The card status of a tool that ended with `status`. */
export const endStatusOf = (status: ToolStatus): ToolEndStatus =>
  status === 'ok' ? 'done' : status;

/** Whether a card status is final (the call ended one way or another). */
export const isEnded = (status: ToolRunStatus): status is ToolEndStatus =>
  status !== 'pending' && status !== 'awaiting_approval' && status !== 'running';

/** Live state of one tool call (keyed by tool_call_id). */
export interface ToolRun {
  status: ToolRunStatus;
  startedAt?: number;
  durationMs?: number;
  output?: string;
  error?: string;
  reason?: string;
  /** The args the call ran with when a hook rewrote the model's input, and that hook's name. */
  ranArgs?: Record<string, unknown>;
  rewrittenBy?: string;
  /** For a tool with retries: the attempt that ended the call, of how many. */
  attempts?: { n: number; max: number };
  /** While a retry waits: why and for how long. */
  retrying?: string;
  /** Output received while the call ran (execute), in arrival order, stdout and stderr apart. */
  live?: LiveChunk[];
}

/** A run of output from one stream of a running command. */
export interface LiveChunk {
  stream: 'stdout' | 'stderr';
  text: string;
}

/** Characters of live output a card keeps (the oldest go first). */
export const LIVE_KEEP_CHARS = 200_000;

/** A carriage return that is not half of a CRLF, and not the text's last character. */
const BARE_CR = /\r(?!\n|$)/;

/**
 * `live` with `chunk` appended, merged into the last run of the same stream and bounded. As in a
 * terminal, a carriage return that is not half of a CRLF starts its line over: what follows replaces
 * the line (a progress meter redrawing itself shows its last state, not every state in a row). A CR
 * that ends a chunk waits for the next one, which may begin with CRLF's `\n`.
 */
export function appendLive(live: readonly LiveChunk[] = [], chunk: LiveChunk): LiveChunk[] {
  const next = live.slice();
  if (next.at(-1)?.text.endsWith('\r') && !chunk.text.startsWith('\n')) eraseLine(next);
  chunk.text.split(BARE_CR).forEach((text, i) => {
    if (i > 0) eraseLine(next);
    if (!text) return;
    const last = next.at(-1);
    if (last?.stream === chunk.stream) next[next.length - 1] = { ...last, text: last.text + text };
    else next.push({ stream: chunk.stream, text });
  });
  let total = next.reduce((n, c) => n + c.text.length, 0);
  while (total > LIVE_KEEP_CHARS && next.length) {
    const first = next[0]!;
    const cut = Math.min(first.text.length, total - LIVE_KEEP_CHARS);
    total -= cut;
    if (cut === first.text.length) next.shift();
    else next[0] = { ...first, text: first.text.slice(cut) };
  }
  return next;
}

/** Removes the current (last, unfinished) line from `live`, in place. */
function eraseLine(live: LiveChunk[]): void {
  while (live.length > 0) {
    const last = live[live.length - 1]!;
    const nl = last.text.lastIndexOf('\n');
    if (nl < 0) {
      live.pop();
      continue;
    }
    if (nl < last.text.length - 1)
      live[live.length - 1] = { ...last, text: last.text.slice(0, nl + 1) };
    return;
  }
}

export interface ApprovalView {
  approvalId: string;
  toolCall: ToolCall;
  kind: 'write' | 'execute';
  preview: string;
  /** The subagent that asks, when the call comes from one. */
  agent?: string;
}

/** A subagent started by a `task` call of this thread (keyed by that call's id; docs/agents.md). */
export interface SubagentRun {
  agent: string;
  /** Its child thread. */
  threadId: string;
  /** Known while its events arrive; after a reload the task call's own status tells. */
  status?: 'running' | 'done' | 'failed' | 'stopped';
  /** What it is doing now (its current tool call). */
  activity?: string;
}

/** How an MCP server's question was answered (docs/tools.md#when-a-server-asks-you). */
export type ElicitationOutcome = StreamEventData['on_elicitation_resolved'];

/** A line shown between messages: a hook block, a hook failure, an error, a cancel, an answered question. */
export interface Notice {
  id: string;
  /** Shown after message `afterIndex` (-1 = before any). */
  afterIndex: number;
  /** 'script': a script hook's `send` output or Next's `data` (docs/agents.md). */
  kind:
    | 'blocked'
    | 'error'
    | 'cancelled'
    | 'warning'
    | 'hook_failed'
    | 'script'
    | 'iteration_cap'
    | 'elicitation';
  text: string;
  by?: string;
  /** kind 'hook_failed': the hook's event, how it failed and which way (open: went ahead; closed: blocked). */
  hookFailure?: { event: string; timedOut: boolean; failed: 'open' | 'closed' };
  /** kind 'elicitation': the question an MCP server asked and how it was answered. */
  elicitation?: ElicitationOutcome;
}

/** `t` with `notice` shown after its last message. */
export function addNotice(t: ThreadChat, notice: Omit<Notice, 'id' | 'afterIndex'>): ThreadChat {
  const id = `n${t.notices.length + 1}-${t.messages.length}`;
  return { ...t, notices: [...t.notices, { ...notice, id, afterIndex: t.messages.length - 1 }] };
}

export interface ThreadChat {
  threadId: string;
  /** False until threads.get filled `messages`. */
  loaded: boolean;
  messages: Message[];
  /** Text streamed for the assistant message being written. */
  streaming: StreamText;
  running: boolean;
  runId?: string;
  tools: Record<string, ToolRun>;
  approvals: ApprovalView[];
  /** Questions MCP servers ask while their tools run, waiting for the user. */
  elicitations: ElicitationRequestView[];
  todos: Todo[];
  /** Usage of the model call that produced assistant message at this index. */
  usage: Record<number, Usage>;
  notices: Notice[];
  /** Messages typed while a run was going; sent one by one after it. */
  queue: string[];
  /** Set when an event shows the local copy missed something; the app re-reads the thread. */
  stale: boolean;
  /** The thread's agent profile as last loaded (absent: `main`). */
  agent?: string;
  /** Subagents this thread's `task` calls started, by tool call id. */
  subagents?: Record<string, SubagentRun>;
  /** The text of the message being sent, until the model answers (what a failure gives back). */
  pendingText?: string;
  /** A send that got no answer: the composer gives the text back with Retry. */
  failedSend?: FailedSend;
  /** Hooks running now that the user is told of (a status message, or a slow hook). */
  runningHooks?: RunningHook[];
}

/** A hook the chat shows as running until its `on_hook_end`. */
export interface RunningHook {
  call: string;
  hook: string;
  event: string;
  message?: string;
}

/** Why a message got no answer, and its text so nothing has to be typed again. */
export interface FailedSend {
  text: string;
  error: string;
  /** The model error's code (unauthorized, unreachable, model_not_found…): configuration to fix. */
  code?: string;
  /** The hook that blocked the prompt. */
  by?: string;
}

/** Error codes a user fixes in Settings (the key, the endpoint or the model). */
export const CONFIG_ERROR_CODES: ReadonlySet<string> = new Set([
  'unauthorized',
  'unreachable',
  'model_not_found',
]);

export interface ChatData {
  threads: Record<string, ThreadChat>;
  lastSeq: number;
}

/** An empty, not-yet-loaded thread entry. */
export function emptyThread(threadId: string): ThreadChat {
  return {
    threadId,
    loaded: false,
    messages: [],
    streaming: EMPTY_STREAM,
    running: false,
    tools: {},
    approvals: [],
    elicitations: [],
    todos: [],
    usage: {},
    notices: [],
    queue: [],
    stale: false,
  };
}

/** The renderer's view of threads and runs, built only by applyEvent / loadThread. */
import type { Message, Todo, ToolCall, Usage } from '../../shared/types/index.ts';

export type ToolStatus = 'pending' | 'awaiting_approval' | 'running' | 'done' | 'error' | 'blocked' | 'denied' | 'cancelled' | 'timeout';

/** Live state of one tool call (keyed by tool_call_id). */
export interface ToolRun {
  status: ToolStatus;
  startedAt?: number;
  durationMs?: number;
  output?: string;
  error?: string;
  reason?: string;
}

export interface ApprovalView {
  approvalId: string;
  toolCall: ToolCall;
  kind: 'write' | 'execute';
  preview: string;
}

/** A line shown between messages: a hook block, an error, a cancel. */
export interface Notice {
  id: string;
  /** Shown after message `afterIndex` (-1 = before any). */
  afterIndex: number;
  kind: 'blocked' | 'error' | 'cancelled' | 'warning';
  text: string;
  by?: string;
}

export interface ThreadChat {
  threadId: string;
  /** False until threads.get filled `messages`. */
  loaded: boolean;
  messages: Message[];
  /** Text streamed for the assistant message being written. */
  streaming: string;
  running: boolean;
  runId?: string;
  tools: Record<string, ToolRun>;
  approvals: ApprovalView[];
  todos: Todo[];
  /** Usage of the model call that produced assistant message at this index. */
  usage: Record<number, Usage>;
  notices: Notice[];
  /** Messages typed while a run was going; sent one by one after it. */
  queue: string[];
  /** Set when an event shows the local copy missed something; the app re-reads the thread. */
  stale: boolean;
}

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
    streaming: '',
    running: false,
    tools: {},
    approvals: [],
    todos: [],
    usage: {},
    notices: [],
    queue: [],
    stale: false,
  };
}

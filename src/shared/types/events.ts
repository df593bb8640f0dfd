/**
 * The run event stream: one discriminated union on `event`, with typed `data` per name. One stream
 * feeds the UI, socket clients and `--json` output (docs/architecture.md).
 */
import type { ToolCall, Todo, Usage, Message, ToolStatus } from './messages.ts';
import type { SpanRecord } from './spans.ts';

export type RunState =
  'pending' | 'running' | 'awaiting_approval' | 'completed' | 'failed' | 'cancelled';
export type RunStopReason = 'completed' | 'max_iterations' | 'cancelled' | 'error' | 'blocked';
/** `allow_network`: allow once, and let this sandboxed command reach the network. */
export type ApprovalDecision = 'allow_once' | 'allow_network' | 'allow_thread' | 'deny';
export type ApprovalMode = 'ask' | 'auto-edit' | 'auto';

/** Whether an agent write created the file or changed an existing one. */
export type FileChangeKind = 'created' | 'modified';

/** A file the agent wrote or edited; `path` as displayed (workspace-relative when inside). */
export interface FileChange {
  path: string;
  tool_call_id?: string;
  change: FileChangeKind;
}

/** Payload shapes of the events, by name. */
export interface StreamEventData {
  on_chat_model_stream: { delta: string };
  on_tool_start: { args: Record<string, unknown>; tool_call_id: string };
  on_tool_end: {
    output: string;
    error?: string;
    status: ToolStatus;
    tool_call_id: string;
    duration_ms: number;
    /** Set when a hook rewrote the input: the args the tool actually ran with, and that hook's name. */
    args?: Record<string, unknown>;
    rewritten_by?: string;
  };
  /** Output of a running command, batched; stdout and stderr apart (docs/tools.md#live-output). */
  on_tool_output: { tool_call_id: string; stream: 'stdout' | 'stderr'; chunk: string };
  done: { stop_reason: RunStopReason; iterations: number };
  error: { message: string; code?: string };
  on_run_start: { workspace: string; model: string };
  on_run_created: { run_id: string; session_id: string; agent_name: string };
  on_run_state: { state: RunState; previous_state: RunState };
  on_run_finalized: { state: RunState; stop_reason: RunStopReason };
  on_message: { message: Message; index: number };
  on_model_end: {
    content: string;
    tool_calls: ToolCall[];
    usage?: Usage;
    interrupted?: boolean;
    finish_reason?: string;
  };
  on_tool_pending: { tool_call_id: string; tool_name: string };
  on_tools_complete: { count: number };
  on_hook_end: {
    hook: string;
    event: string;
    decision?: string;
    reason?: string;
    duration_ms: number;
    ok: boolean;
    /** The hook_runs row, not the agent run. */
    run_id?: number;
    /** On a failure: whether it let the run go on ('open') or blocked what it guards ('closed'). */
    failed?: 'open' | 'closed';
    timed_out?: boolean;
  };
  /** A hook's message for the user (Claude `systemMessage`, or the `stopReason` of a hook that ended the run). */
  on_hook_message: { hook: string; event: string; message: string; kind: 'message' | 'stop' };
  on_todos: { todos: Todo[] };
  on_span_start: { span: SpanRecord };
  on_span_end: { span: SpanRecord };
  on_approval_request: {
    approval_id: string;
    tool_call: ToolCall;
    kind: 'write' | 'execute';
    preview: string;
  };
  on_approval_resolved: { approval_id: string; decision: ApprovalDecision };
  on_blocked: {
    by: string;
    reason: string;
    target: 'message' | 'tool_call';
    tool_call_id?: string;
  };
  on_compaction: { before_tokens: number; after_tokens: number; summarized_messages: number };
  file_changed: FileChange;
}

export type StreamEventName = keyof StreamEventData;

/** The ids every event on the stream carries. */
export interface RunIds {
  run_id: string;
  thread_id: string;
}

/**
 * One event as an emitter inside a run sends it: the run stamps `run_id` / `thread_id`.
 * `name` is the tool or model name where there is one.
 */
export type RunEvent = {
  [K in StreamEventName]: { event: K; name?: string; data: StreamEventData[K] };
}[StreamEventName];

/** One event on the stream, narrowed by `switch (e.event)`. */
export type StreamEvent = {
  [K in StreamEventName]: { event: K; name?: string; data: StreamEventData[K] } & RunIds;
}[StreamEventName];


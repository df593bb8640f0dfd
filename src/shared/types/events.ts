/**
 * The run event stream: one discriminated union on `event`, with typed `data` per name. One stream
 * feeds the UI, socket clients and `--json` output (docs/architecture.md).
 */
import type { ToolCall, Todo, Usage, Message, ToolStatus, ToolAttempts } from './messages.ts';
import type { SpanRecord } from './spans.ts';
import type { ElicitAction, ElicitField } from './elicitation.ts';

/** `interrupted`: the process running it died; set on the next start (docs/events.md#run-rescue). */
export type RunState =
  | 'pending'
  | 'running'
  | 'awaiting_approval'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'interrupted';
export type RunStopReason = 'completed' | 'max_iterations' | 'cancelled' | 'error' | 'blocked';
/** `allow_network`: allow once, and let this sandboxed command reach the network. */
export type ApprovalDecision = 'allow_once' | 'allow_network' | 'allow_thread' | 'deny';
export type ApprovalMode = 'ask' | 'auto-edit' | 'auto';

/** Whether an agent write created the file or changed an existing one. */
export type FileChangeKind = 'created' | 'modified' | 'deleted';

/** A file the agent wrote or edited; `path` as displayed (workspace-relative when inside). */
export interface FileChange {
  path: string;
  tool_call_id?: string;
  change: FileChangeKind;
}

/** An elicitation waiting for the user, as the chat shows it. */
export interface ElicitationRequestView {
  elicitation_id: string;
  /** The MCP server that asks. */
  server: string;
  message: string;
  mode: 'form' | 'url';
  /** The form (mode `form`). */
  fields?: ElicitField[];
  /** The page to open (mode `url`). */
  url?: string;
  /**
   * The server refused the tool call until this page is finished: accepting says the person
   * finished there, and the call is tried again.
   */
  required?: boolean;
  /** The tool call it came during. */
  tool_call_id?: string;
  /** The subagent whose call it came during. */
  agent?: string;
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
    /** For a tool with retries: the attempt that ended the call, of how many. */
    attempts?: ToolAttempts;
  };
  /** Output of a running command, batched; stdout and stderr apart (docs/tools.md#live-output). */
  on_tool_output: { tool_call_id: string; stream: 'stdout' | 'stderr'; chunk: string };
  done: { stop_reason: RunStopReason; iterations: number };
  error: { message: string; code?: string };
  /** `working_dirs`: folders added to the workspace (`--add-dir`, `additionalDirectories`), when any. */
  on_run_start: { workspace: string; model: string; working_dirs?: string[] };
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
  /** A failed attempt of a tool with retries; the next starts after `delay_ms` (docs/tools.md#errors-and-retries). */
  on_tool_retry: {
    tool_call_id: string;
    /** The attempt about to run, of `max_attempts` (a snooze does not count one). */
    attempt: number;
    max_attempts: number;
    kind: 'retryable' | 'snooze';
    delay_ms: number;
    error: string;
  };
  on_tools_complete: { count: number };
  /**
   * A hook is running: one with a status message (Claude `statusMessage`) at once, any other once it
   * has run a second; its `on_hook_end` carries the same `call`.
   */
  on_hook_start: { hook: string; event: string; call: string; message?: string };
  on_hook_end: {
    hook: string;
    event: string;
    decision?: string;
    reason?: string;
    duration_ms: number;
    ok: boolean;
    /** The hook_runs row, not the agent run. */
    run_id?: number;
    /** The `call` of this run's `on_hook_start`, when one was sent. */
    call?: string;
    /** On a failure: whether it let the run go on ('open') or blocked what it guards ('closed'). */
    failed?: 'open' | 'closed';
    timed_out?: boolean;
  };
  /** A hook's message for the user (Claude `systemMessage`, or the `stopReason` of a hook that ended the run). */
  on_hook_message: { hook: string; event: string; message: string; kind: 'message' | 'stop' };
  /** What a script hook's Next returned as `data` (docs/agents.md#script-hooks-create--next). */
  on_script_data: { hook: string; data: unknown; metadata?: Record<string, unknown> };
  /** A script hook's `send` or finished `sendStream`: the whole text (its deltas streamed before). */
  on_script_message: { hook: string; text: string };
  on_todos: { todos: Todo[] };
  on_span_start: { span: SpanRecord };
  on_span_end: { span: SpanRecord };
  on_approval_request: {
    approval_id: string;
    tool_call: ToolCall;
    kind: 'write' | 'execute';
    preview: string;
    /** The subagent that asks, when the call comes from one (docs/agents.md). */
    agent?: string;
    /** The run's working directories besides the workspace, which its writes may reach (docs/security.md#working-directories). */
    working_dirs?: string[];
  };
  on_approval_resolved: { approval_id: string; decision: ApprovalDecision };
  /**
   * An MCP server asks the user for input while its tool runs (docs/tools.md#when-a-server-asks-you):
   * a form of `fields`, or a page at `url` to open. Answered with `chat.answerElicitation`.
   */
  on_elicitation_request: ElicitationRequestView;
  /**
   * How an elicitation was answered: by the user, by a hook, by the server reporting its page
   * finished, or declined because nobody could answer.
   */
  on_elicitation_resolved: {
    elicitation_id: string;
    server: string;
    message: string;
    action: ElicitAction;
    answered_by: 'user' | 'hook' | 'server' | 'nobody';
    /** The hook that answered or changed the answer. */
    hook?: string;
    /** Why nobody was asked: nobody can answer here, or the request cannot be shown. */
    reason?: string;
  };
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
  /** Set on the events of a subagent run: how deep it is (1 = started by the main agent). */
  depth?: number;
  /** Set on the events of a subagent run: the `task` call that started it and that call's thread. */
  parent_tool_call_id?: string;
  parent_thread_id?: string;
  /** Set on the events of a subagent run: its agent profile. */
  agent?: string;
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


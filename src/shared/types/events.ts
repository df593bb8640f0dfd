/**
 * StreamEvent (seed 000 §7.3) and the event names the workbench adds (ARCHITECTURE §3 step 5 and the
 * run lifecycle names of seed 003). One event stream feeds the UI, socket clients and `--json` output.
 */
import type { ToolCall, Todo, Usage, Message, ToolStatus } from './messages.ts';
import type { SpanRecord } from './spans.ts';

export type StreamEventName =
  | 'on_chat_model_stream'
  | 'on_tool_start'
  | 'on_tool_end'
  | 'done'
  | 'error'
  | 'on_run_start'
  | 'on_run_created'
  | 'on_run_state'
  | 'on_run_finalized'
  | 'on_message'
  | 'on_model_end'
  | 'on_tool_pending'
  | 'on_tools_complete'
  | 'on_hook_end'
  | 'on_todos'
  | 'on_span_start'
  | 'on_span_end'
  | 'on_approval_request'
  | 'on_approval_resolved'
  | 'on_blocked'
  | 'on_compaction';

export interface StreamEvent<D = unknown> {
  event: StreamEventName;
  /** Tool name or model name. */
  name?: string;
  run_id?: string;
  data?: D;
  thread_id?: string;
}

export type RunState = 'pending' | 'running' | 'awaiting_approval' | 'completed' | 'failed' | 'cancelled';
export type RunStopReason = 'completed' | 'max_iterations' | 'cancelled' | 'error' | 'blocked';

/** Payload shapes of the events, by name. */
export interface StreamEventData {
  on_chat_model_stream: { delta: string };
  on_tool_start: { args: Record<string, unknown>; tool_call_id: string };
  on_tool_end: { output: string; error?: string; tool_call_id: string; duration_ms: number; status: ToolStatus };
  done: { stop_reason: RunStopReason; iterations: number };
  error: { message: string; code?: string };
  on_run_start: { workspace: string; model: string };
  on_run_created: { run_id: string; session_id: string; agent_name: string };
  on_run_state: { state: RunState; previous_state: RunState };
  on_run_finalized: { state: RunState; stop_reason: RunStopReason };
  on_message: { message: Message; index: number };
  on_model_end: { content: string; tool_calls: ToolCall[]; usage?: Usage; interrupted?: boolean; finish_reason?: string };
  on_tool_pending: { tool_call_id: string; tool_name: string };
  on_tools_complete: { count: number };
  on_hook_end: {
    hook: string;
    event: string;
    decision?: string;
    reason?: string;
    duration_ms: number;
    ok: boolean;
    run_id?: number;
  };
  on_todos: { todos: Todo[] };
  on_span_start: { span: SpanRecord };
  on_span_end: { span: SpanRecord };
  on_approval_request: { approval_id: string; tool_call: ToolCall; kind: 'write' | 'execute'; preview: string };
  on_approval_resolved: { approval_id: string; decision: ApprovalDecision };
  on_blocked: { by: string; reason: string; target: 'message' | 'tool_call'; tool_call_id?: string };
  on_compaction: { before_tokens: number; after_tokens: number; summarized_messages: number };
}

export type ApprovalDecision = 'allow_once' | 'allow_thread' | 'deny';
export type ApprovalMode = 'ask' | 'auto-edit' | 'auto';

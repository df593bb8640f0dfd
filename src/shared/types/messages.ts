/**
 * Conversation data types, with snake_case JSON field names (on the wire and on disk). Pure:
 * imported by main, renderer and tests alike.
 */

export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** A tool invocation requested by the model. */
export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** Raw JSON the model sent; kept for token estimation and for reporting malformed arguments. */
  raw_args?: string;
}

/** One entry of the conversation. */
export interface Message {
  role: Role;
  content: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
  /** Set on an assistant message whose stream broke before it finished; its tool calls never ran. */
  interrupted?: boolean;
  /** How the tool call ended; set on tool messages (absent on threads stored before it existed). */
  status?: ToolStatus;
  /** Tags of the run a user message started (`--meta`, the recipe); docs/events.md#metadata. */
  metadata?: Record<string, string>;
}

/** How a tool call ended (docs/tools.md). */
export type ToolStatus = 'ok' | 'error' | 'denied' | 'blocked' | 'cancelled' | 'timeout';

/** What a tool produced. `error` is set only on failure. */
export interface ToolResult {
  tool_call_id: string;
  name: string;
  output: string;
  error?: string;
  /** How the call ended: readers take the outcome from here, never from the error text. */
  status: ToolStatus;
  /** The input a hook rewrote and the call ran with (the model's own args stay on its tool call). */
  rewritten?: { by: string; args: Record<string, unknown> };
  /** A hook asked to end the run after this call (Claude `continue: false`): the run stops here. */
  halt?: { by: string; reason: string };
  /** Attempts made and allowed, for a tool with retries (docs/tools.md#errors-and-retries). */
  attempts?: ToolAttempts;
  /** A command's stdout and stderr apart (execute), for other agents' hooks; never sent to the model. */
  streams?: { stdout: string; stderr: string };
}

/** Attempt `n` of `max` (the tool card shows it when `max` > 1). */
export interface ToolAttempts {
  n: number;
  max: number;
}

export type TodoStatus = 'pending' | 'in_progress' | 'done';

/** One task of the agent's todo list. */
export interface Todo {
  id: string;
  title: string;
  status: TodoStatus;
}

/** The whole state of one thread. */
export interface AgentState {
  thread_id: string;
  messages: Message[];
  todos: Todo[];
  files: Record<string, string>;
}

/** Token usage of one model call, absent fields meaning "not reported". */
export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
}

/** A thread as listed in the sidebar and by `workbench threads list`. */
export interface ThreadSummary {
  thread_id: string;
  title: string;
  workspace: string;
  created_at: number;
  updated_at: number;
  message_count: number;
  /** The agent profile the thread runs (absent: `main`; docs/agents.md). */
  agent?: string;
  /** Set on a subagent's child thread: the thread and the `task` tool call that started it. */
  parent_thread_id?: string;
  parent_tool_call_id?: string;
  /** Key/value tags set by runs (`--meta`), hooks and the thread info drawer (docs/events.md). */
  metadata?: Record<string, string>;
  /** State of the thread's latest run; `interrupted` offers Resume (docs/events.md#run-rescue). */
  last_run_state?: string;
}

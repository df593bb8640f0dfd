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
  /** A command's stdout and stderr apart (execute), for other agents' hooks; never sent to the model. */
  streams?: { stdout: string; stderr: string };
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
}

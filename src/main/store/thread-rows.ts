/** Row shapes of the threads/messages tables and their mapping to shared types. */
import type { Message, ThreadSummary, ToolCall, ToolStatus } from '../../shared/types/index.ts';

export interface ThreadRow {
  id: string;
  title: string;
  workspace: string;
  created_at: number;
  updated_at: number;
  message_count: number;
  todos: string;
  compaction: string | null;
  parent_thread_id?: string | null;
  parent_tool_call_id?: string | null;
  agent?: string | null;
  metadata: string;
  /** Selected with the row: the state of the thread's latest run. */
  last_run_state?: string | null;
}

export interface MessageRow {
  role: string;
  content: string;
  tool_calls: string | null;
  tool_call_id: string | null;
  name: string | null;
  interrupted: number;
  status: string | null;
  metadata: string | null;
}

/** Content of the synthetic result given to a tool call that a crash left without one. */
export const INTERRUPTED_TOOL_RESULT =
  'interrupted: the workbench stopped before this tool finished';

/** Maps a messages row to a Message, omitting absent optional fields. */
export function messageFromRow(row: MessageRow): Message {
  const msg: Message = { role: row.role as Message['role'], content: row.content };
  if (row.tool_calls !== null) msg.tool_calls = JSON.parse(row.tool_calls) as ToolCall[];
  if (row.tool_call_id !== null) msg.tool_call_id = row.tool_call_id;
  if (row.name !== null) msg.name = row.name;
  if (row.interrupted) msg.interrupted = true;
  if (row.status !== null) msg.status = row.status as ToolStatus;
  if (row.metadata) msg.metadata = JSON.parse(row.metadata) as Record<string, string>;
  return msg;
}

/** The positional values of a messages INSERT (after thread_id, seq). */
export function messageValues(
  msg: Message,
): [string, string, string | null, string | null, string | null, number, string | null, string | null] {
  return [
    msg.role,
    msg.content,
    msg.tool_calls && msg.tool_calls.length > 0 ? JSON.stringify(msg.tool_calls) : null,
    msg.tool_call_id ?? null,
    msg.name ?? null,
    msg.interrupted ? 1 : 0,
    msg.status ?? null,
    msg.metadata && Object.keys(msg.metadata).length ? JSON.stringify(msg.metadata) : null,
  ];
}

export function summaryFromRow(row: ThreadRow): ThreadSummary {
  return {
    thread_id: row.id,
    title: row.title,
    workspace: row.workspace,
    created_at: row.created_at,
    updated_at: row.updated_at,
    message_count: row.message_count,
    ...(row.agent ? { agent: row.agent } : {}),
    ...(row.parent_thread_id ? { parent_thread_id: row.parent_thread_id } : {}),
    ...(row.parent_tool_call_id ? { parent_tool_call_id: row.parent_tool_call_id } : {}),
    metadata: JSON.parse(row.metadata || '{}') as Record<string, string>,
    ...(row.last_run_state ? { last_run_state: row.last_run_state } : {}),
  };
}

/** Title derived from a first user message: whitespace collapsed, at most ~60 chars. */
export function titleFrom(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= 60 ? flat : `${flat.slice(0, 59).trimEnd()}…`;
}

/**
 * Synthetic tool results for the calls of the trailing assistant message that have none yet.
 * Only the tail can be orphaned: results are appended as they arrive and a crash stops the loop,
 * so an earlier assistant message was always completed before the next turn started.
 * Contract: their status is 'cancelled' — the call was cut off, and whether the tool itself would
 * have failed is unknown, so 'error' would claim more than we know.
 */
export function orphanToolResults(messages: readonly Message[]): Message[] {
  let i = messages.length - 1;
  while (i >= 0 && messages[i].role === 'tool') i--;
  const assistant = messages[i];
  if (!assistant || assistant.role !== 'assistant' || !assistant.tool_calls?.length) return [];
  const answered = new Set(messages.slice(i + 1).map((m) => m.tool_call_id));
  return assistant.tool_calls
    .filter((call) => !answered.has(call.id))
    .map((call) => ({
      role: 'tool',
      tool_call_id: call.id,
      name: call.name,
      content: INTERRUPTED_TOOL_RESULT,
      status: 'cancelled',
    }));
}

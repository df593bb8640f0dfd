/**
 * The one pure reducer through which server data enters the store, so every update path is one
 * testable function: applies one `agent.event` envelope to ChatData and returns the new ChatData
 * (unchanged parts shared).
 */
import type { AgentEventEnvelope, PendingApproval } from '../../shared/ipc/contract.ts';
import type {
  AgentState,
  ElicitationRequestView,
  Message,
  StreamEventData,
} from '../../shared/types/index.ts';
import { applySpanEvents, type TraceData } from '../features/trace/trace-data.ts';
import { applySubagentEvent } from '../features/agents/subagent-events.ts';
import { stripHookContext } from '../features/chat/rows.ts';
import { requestElicitation, resolveElicitation } from '../features/chat/elicitation-events.ts';
import { appendStream, EMPTY_STREAM, streamOf, streamText } from './stream-text.ts';
import {
  addNotice,
  appendLive,
  emptyThread,
  endStatusOf,
  isEnded,
  type ChatData,
  type ThreadChat,
  type ToolRun,
} from './chat-types.ts';

function patchThread(
  data: ChatData,
  threadId: string,
  fn: (t: ThreadChat) => ThreadChat,
): ChatData {
  const before = data.threads[threadId] ?? emptyThread(threadId);
  const after = fn(before);
  if (after === before && data.threads[threadId]) return data;
  return { ...data, threads: { ...data.threads, [threadId]: after } };
}

function setTool(t: ThreadChat, id: string, patch: Partial<ToolRun>): ThreadChat {
  const prev = t.tools[id] ?? { status: 'pending' as const };
  return { ...t, tools: { ...t.tools, [id]: { ...prev, ...patch } } };
}

const ERROR_PREFIX = 'Error: ';

/**
 * The card of a stored tool message: its status, and the error line the loop put first in the
 * content of a failed call (`Error: <error>\n<output>`).
 */
export function toolRunFromMessage(message: Message): ToolRun {
  const { content } = message;
  // Fallback for rows stored before the migration that gave tool messages a status, and only for
  // them: the loop then wrote every failure as `Error: …`, the one sign of a failure left.
  const status = message.status
    ? endStatusOf(message.status)
    : content.startsWith(ERROR_PREFIX)
      ? 'error'
      : 'done';
  if (status === 'done') return { status, output: content };
  const [error, ...rest] = (
    content.startsWith(ERROR_PREFIX) ? content.slice(ERROR_PREFIX.length) : content
  ).split('\n');
  return { status, error, output: rest.join('\n') };
}

/** The text a failed send gives back: what was being sent, else the last unanswered user message. */
function unansweredText(t: ThreadChat): string {
  if (t.pendingText !== undefined) return t.pendingText;
  const last = t.messages.at(-1);
  return last?.role === 'user' ? stripHookContext(last.content) : '';
}

function lastAssistantIndex(messages: Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'assistant') return i;
  return -1;
}

function onMessage(t: ThreadChat, d: StreamEventData['on_message']): ThreadChat {
  if (!t.loaded && d.index !== 0) return { ...t, stale: true };
  const messages = t.messages.slice();
  if (d.index > messages.length) return { ...t, stale: true };
  messages[d.index] = d.message;
  const next: ThreadChat = { ...t, loaded: true, messages };
  if (d.message.role === 'assistant') {
    next.streaming = EMPTY_STREAM;
    next.pendingText = undefined;
  }
  if (d.message.role === 'tool' && d.message.tool_call_id) {
    const run = t.tools[d.message.tool_call_id];
    if (!run || run.status === 'pending' || run.status === 'running') {
      return setTool(next, d.message.tool_call_id, toolRunFromMessage(d.message));
    }
  }
  return next;
}

function applyToThread(t: ThreadChat, env: AgentEventEnvelope): ThreadChat {
  const e = env.event;
  switch (e.event) {
    case 'on_run_created':
    case 'on_run_start':
      return t.running && t.runId === e.run_id
        ? t
        : { ...t, running: true, runId: e.run_id, streaming: EMPTY_STREAM };
    case 'on_message':
      return onMessage(t, e.data);
    case 'on_chat_model_stream':
      return { ...t, running: true, streaming: appendStream(t.streaming, e.data.delta) };
    case 'on_model_end': {
      const d = e.data;
      const idx = lastAssistantIndex(t.messages);
      const usage = d.usage && idx >= 0 ? { ...t.usage, [idx]: d.usage } : t.usage;
      return { ...t, streaming: EMPTY_STREAM, usage };
    }
    case 'on_tool_pending':
      return setTool(t, e.data.tool_call_id, { status: 'pending' });
    case 'on_tool_retry': {
      const d = e.data;
      return setTool(t, d.tool_call_id, {
        attempts: { n: d.attempt, max: d.max_attempts },
        retrying: `${d.kind === 'snooze' ? 'snoozed' : 'retrying'} in ${Math.round(d.delay_ms / 100) / 10} s: ${d.error}`,
      });
    }
    case 'on_tool_start': {
      const id = e.data.tool_call_id;
      const prev = t.tools[id]?.status;
      return setTool(t, id, {
        status: prev === 'awaiting_approval' ? prev : 'running',
        startedAt: Date.now(),
      });
    }
    case 'on_tool_output': {
      const d = e.data;
      const live = appendLive(t.tools[d.tool_call_id]?.live, { stream: d.stream, text: d.chunk });
      return setTool(t, d.tool_call_id, { live });
    }
    case 'on_tool_end': {
      const d = e.data;
      return setTool(t, d.tool_call_id, {
        status: endStatusOf(d.status),
        output: d.output,
        error: d.error,
        durationMs: d.duration_ms,
        ...(d.rewritten_by ? { ranArgs: d.args, rewrittenBy: d.rewritten_by } : {}),
        ...(d.attempts ? { attempts: d.attempts } : {}),
        retrying: undefined,
      });
    }
    case 'on_hook_message': {
      const d = e.data;
      const text =
        d.kind === 'stop'
          ? `Run stopped by hook ${d.hook}: ${d.message}`
          : `Hook ${d.hook}: ${d.message}`;
      return addNotice(t, { kind: 'warning', text, by: d.hook });
    }
    case 'on_script_message': {
      const d = e.data;
      // Its deltas streamed already: the whole text now stays as a notice instead.
      const streamed = streamText(t.streaming);
      const streaming = streamed.endsWith(d.text)
        ? streamOf(streamed.slice(0, -d.text.length))
        : t.streaming;
      return addNotice({ ...t, streaming }, { kind: 'script', text: d.text, by: d.hook });
    }
    case 'on_script_data': {
      const d = e.data;
      return addNotice(t, {
        kind: 'script',
        text: `${d.hook}: ${JSON.stringify(d.data)}`,
        by: d.hook,
      });
    }
    case 'on_approval_request': {
      const d = e.data;
      if (t.approvals.some((a) => a.approvalId === d.approval_id)) return t;
      const next = {
        ...t,
        approvals: [
          ...t.approvals,
          { approvalId: d.approval_id, toolCall: d.tool_call, kind: d.kind, preview: d.preview },
        ],
      };
      return setTool(next, d.tool_call.id, { status: 'awaiting_approval' });
    }
    case 'on_approval_resolved': {
      const d = e.data;
      const approval = t.approvals.find((a) => a.approvalId === d.approval_id);
      const next = { ...t, approvals: t.approvals.filter((a) => a.approvalId !== d.approval_id) };
      if (!approval) return next;
      return setTool(next, approval.toolCall.id, {
        status: d.decision === 'deny' ? 'denied' : 'running',
      });
    }
    case 'on_elicitation_request':
      return requestElicitation(t, e.data);
    case 'on_elicitation_resolved':
      return resolveElicitation(t, e.data);
    case 'on_blocked': {
      const d = e.data;
      if (d.target === 'tool_call' && d.tool_call_id)
        return setTool(t, d.tool_call_id, { status: 'blocked', reason: d.reason });
      const failedSend = { text: t.pendingText ?? '', error: d.reason, by: d.by };
      return addNotice({ ...t, failedSend }, { kind: 'blocked', text: d.reason, by: d.by });
    }
    case 'on_hook_start': {
      const { call, hook, event, message } = e.data;
      return {
        ...t,
        runningHooks: [
          ...(t.runningHooks ?? []),
          { call, hook, event, ...(message ? { message } : {}) },
        ],
      };
    }
    case 'on_hook_end': {
      const d = e.data;
      const shown =
        d.call && t.runningHooks?.length
          ? { ...t, runningHooks: t.runningHooks.filter((h) => h.call !== d.call) }
          : t;
      // A hook stopped with a cancelled run did not fail; the cancel has its own notice.
      if (d.ok || d.reason === 'cancelled') return shown;
      return addNotice(shown, {
        kind: 'hook_failed',
        text: d.reason ?? 'failed',
        by: d.hook,
        hookFailure: { event: d.event, timedOut: Boolean(d.timed_out), failed: d.failed ?? 'open' },
      });
    }
    case 'on_todos':
      return { ...t, todos: e.data.todos };
    case 'error': {
      const d = e.data;
      if (d.code === 'diagnostic') return addNotice(t, { kind: 'warning', text: d.message });
      const text = unansweredText(t);
      const failed: ThreadChat = text
        ? { ...t, failedSend: { text, error: d.message, ...(d.code ? { code: d.code } : {}) } }
        : t;
      return addNotice(failed, { kind: 'error', text: d.message });
    }
    case 'done': {
      const tools = { ...t.tools };
      // A call the run never ended (cancel, crash) gets no on_tool_end: it ended with the run.
      for (const [id, run] of Object.entries(tools)) {
        if (!isEnded(run.status)) tools[id] = { ...run, status: 'cancelled' };
      }
      const ended: ThreadChat = {
        ...t,
        pendingText: undefined,
        running: false,
        runId: e.run_id,
        streaming: EMPTY_STREAM,
        approvals: [],
        elicitations: [],
        runningHooks: undefined,
        tools,
      };
      if (e.data.stop_reason === 'max_iterations')
        return addNotice(ended, {
          kind: 'iteration_cap',
          text: `The agent stopped after ${e.data.iterations} steps, its limit for one run. It can pick up where it left off.`,
        });
      return e.data.stop_reason === 'cancelled'
        ? addNotice(ended, { kind: 'cancelled', text: 'Run cancelled.' })
        : ended;
    }
    default:
      return t;
  }
}

/** Applies one envelope. Contract: pure. */
export function applyEvent(data: ChatData, env: AgentEventEnvelope): ChatData {
  const base = env.seq > data.lastSeq ? { ...data, lastSeq: env.seq } : data;
  const own = patchThread(base, env.event.thread_id, (t) => applyToThread(t, env));
  // A subagent's event also updates its card (and approvals) in the parent thread.
  const parent = env.event.parent_thread_id;
  return parent ? patchThread(own, parent, (t) => applySubagentEvent(t, env)) : own;
}

/** Applies a batch of envelopes (one animation frame's worth). */
export function applyEvents(data: ChatData, envs: readonly AgentEventEnvelope[]): ChatData {
  return envs.reduce(applyEvent, data);
}

/**
 * Replaces a thread's messages, todos, pending approvals and pending questions of MCP servers with
 * the server's copy (open, reload, resync).
 */
export function loadThread(
  data: ChatData,
  state: AgentState,
  running: boolean,
  approvals: PendingApproval[] = [],
  elicitations: ElicitationRequestView[] = [],
): ChatData {
  return patchThread(data, state.thread_id, (t) => {
    const tools: Record<string, ToolRun> = { ...t.tools };
    for (const m of state.messages) {
      if (m.role === 'tool' && m.tool_call_id && !tools[m.tool_call_id]) {
        tools[m.tool_call_id] = toolRunFromMessage(m);
      }
    }
    for (const a of approvals)
      tools[a.tool_call.id] = { ...tools[a.tool_call.id], status: 'awaiting_approval' };
    const views = approvals.map((a) => ({
      approvalId: a.approval_id,
      toolCall: a.tool_call,
      kind: a.kind,
      preview: a.preview,
    }));
    const known = new Set(views.map((v) => v.approvalId));
    const merged = running
      ? [...views, ...t.approvals.filter((v) => !known.has(v.approvalId))]
      : [];
    const asked = new Set(elicitations.map((e) => e.elicitation_id));
    const pending = running
      ? [...elicitations, ...t.elicitations.filter((e) => !asked.has(e.elicitation_id))]
      : [];
    // A snapshot taken mid-run can be older than events already applied: never go backwards then.
    const messages =
      running && t.loaded && t.messages.length > state.messages.length
        ? t.messages
        : state.messages;
    return {
      ...t,
      loaded: true,
      stale: false,
      messages,
      todos: state.todos,
      running,
      tools,
      approvals: merged,
      elicitations: pending,
      streaming: running ? t.streaming : EMPTY_STREAM,
    };
  });
}

/** Routes `on_span_start` / `on_span_end` envelopes into the trace slice's data. Contract: pure. */
export function applyTraceEvents(trace: TraceData, envs: readonly AgentEventEnvelope[]): TraceData {
  return applySpanEvents(trace, envs);
}

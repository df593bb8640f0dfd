/**
 * How a subagent's events show in its parent thread (docs/agents.md): the `task` card's live status
 * and activity, and the subagent's approval prompts and MCP servers' questions, which the user
 * answers from the parent's chat.
 */
import type { AgentEventEnvelope } from '../../../shared/ipc/contract.ts';
import type { ThreadSummary } from '../../../shared/types/index.ts';
import type { SubagentRun, ThreadChat } from '../../stores/chat-types.ts';
import { requestElicitation, resolveElicitation } from '../chat/elicitation-events.ts';

const headline = (args: Record<string, unknown>): string => {
  const v = args.command ?? args.path ?? args.pattern ?? args.subagent_type;
  return typeof v === 'string' ? ` ${v}` : '';
};

/**
 * Applies a subagent's event to its parent thread. Contract: pure; events without
 * `parent_tool_call_id` leave the thread as is.
 */
export function applySubagentEvent(t: ThreadChat, env: AgentEventEnvelope): ThreadChat {
  const e = env.event;
  const callId = e.parent_tool_call_id;
  if (!callId) return t;
  const prev: SubagentRun = t.subagents?.[callId] ?? {
    agent: e.agent ?? 'subagent',
    threadId: e.thread_id,
    status: 'running',
  };
  let run: SubagentRun = prev;
  let approvals = t.approvals;
  let thread = t;
  switch (e.event) {
    case 'on_run_start':
      run = { ...prev, status: 'running' };
      break;
    case 'on_tool_start':
      run = { ...prev, activity: `${e.name ?? 'tool'}${headline(e.data.args)}` };
      break;
    case 'on_approval_request':
      if (approvals.some((a) => a.approvalId === e.data.approval_id)) return t;
      approvals = [
        ...approvals,
        {
          approvalId: e.data.approval_id,
          toolCall: e.data.tool_call,
          kind: e.data.kind,
          preview: e.data.preview,
          agent: e.data.agent ?? prev.agent,
        },
      ];
      run = { ...prev, activity: 'waiting for your approval' };
      break;
    case 'on_approval_resolved':
      approvals = approvals.filter((a) => a.approvalId !== e.data.approval_id);
      run = { ...prev, activity: undefined };
      break;
    case 'on_elicitation_request':
      thread = requestElicitation(t, { ...e.data, agent: e.data.agent ?? prev.agent });
      if (thread === t) return t;
      run = { ...prev, activity: 'waiting for your answer' };
      break;
    case 'on_elicitation_resolved': {
      const id = e.data.elicitation_id;
      // The outcome line goes where the question was shown; the child thread has its own.
      if (t.elicitations.some((q) => q.elicitation_id === id))
        thread = resolveElicitation(t, e.data);
      run = { ...prev, activity: undefined };
      break;
    }
    case 'done': {
      const r = e.data.stop_reason;
      run = {
        ...prev,
        activity: undefined,
        status: r === 'completed' ? 'done' : r === 'cancelled' ? 'stopped' : 'failed',
      };
      break;
    }
    default:
      if (t.subagents?.[callId]) return t;
  }
  return { ...thread, approvals, subagents: { ...t.subagents, [callId]: run } };
}

/** The subagents of a reloaded thread, from its child threads (status then comes from the task call). */
export function subagentsFromChildren(
  children: readonly ThreadSummary[] | undefined,
  live: ThreadChat['subagents'],
): ThreadChat['subagents'] {
  if (!children?.length) return live;
  const out: Record<string, SubagentRun> = { ...live };
  for (const c of children) {
    if (!c.parent_tool_call_id || out[c.parent_tool_call_id]) continue;
    out[c.parent_tool_call_id] = { agent: c.agent ?? 'subagent', threadId: c.thread_id };
  }
  return out;
}

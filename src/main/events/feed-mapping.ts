/**
 * Which stream events go into the feed, under which feed type (docs/events.md), and back: a feed
 * event another process wrote, replayed as the stream event the renderer already understands.
 */
import type { FeedEvent, StreamEvent } from '../../shared/types/index.ts';
import type { NewFeedEvent } from '../store/event-store.ts';

/** The feed event for a stream event, or undefined for the ones the feed leaves out (deltas, spans). */
export function toFeedEvent(e: StreamEvent): NewFeedEvent | undefined {
  const ids = { thread_id: e.thread_id, run_id: e.run_id };
  switch (e.event) {
    case 'on_run_created':
      return { type: 'run_created', ...ids, data: { agent_name: e.data.agent_name } };
    case 'on_run_state':
      return { type: 'run_state_changed', ...ids, data: { ...e.data } };
    case 'on_run_finalized':
      return { type: 'run_finalized', ...ids, data: { ...e.data } };
    case 'on_tool_pending':
      return { type: 'tool_pending', ...ids, data: { ...e.data } };
    case 'on_tools_complete':
      return { type: 'tools_complete', ...ids, data: { ...e.data } };
    case 'on_message':
      return { type: 'message', ...ids, data: { index: e.data.index, message: e.data.message } };
    case 'on_hook_end':
      return { type: 'hook_end', ...ids, data: { ...e.data } };
    default:
      return undefined;
  }
}

/**
 * The stream events a feed event stands for, for the faces of another process (`serve`, the app):
 * a finalized run also ends with `done`, as a local run does.
 * Contract: only events the renderer's reducer can apply without the run's own process.
 */
export function toStreamEvents(f: FeedEvent): StreamEvent[] {
  const e = toStreamEvent(f);
  if (!e) return [];
  if (e.event !== 'on_run_finalized') return [e];
  const stop_reason =
    e.data.stop_reason === ('interrupted' as string) ? 'error' : e.data.stop_reason;
  return [
    e,
    {
      event: 'done',
      thread_id: e.thread_id,
      run_id: e.run_id,
      data: { stop_reason, iterations: 0 },
    },
  ];
}

function toStreamEvent(f: FeedEvent): StreamEvent | undefined {
  if (!f.thread_id || !f.run_id) return undefined;
  const ids = { thread_id: f.thread_id, run_id: f.run_id };
  const d = f.data as never;
  switch (f.type) {
    case 'run_created':
      return {
        event: 'on_run_created',
        ...ids,
        data: { run_id: f.run_id, session_id: f.thread_id, agent_name: 'workbench' },
      };
    case 'run_state_changed':
      return { event: 'on_run_state', ...ids, data: d };
    case 'run_finalized':
      return { event: 'on_run_finalized', ...ids, data: d };
    case 'message':
      return { event: 'on_message', ...ids, data: d };
    case 'tool_pending':
      return { event: 'on_tool_pending', ...ids, data: d };
    case 'tools_complete':
      return { event: 'on_tools_complete', ...ids, data: d };
    default:
      return undefined;
  }
}

/**
 * The event feed (docs/events.md): run lifecycle, message and hook events appended to the `events`
 * table, read by `workbench events`, other processes and webhooks.
 */

/** The feed's event types. */
export type FeedEventType =
  | 'run_created'
  | 'run_state_changed'
  | 'run_finalized'
  | 'tool_pending'
  | 'tools_complete'
  | 'message'
  | 'hook_end'
  | 'metadata_changed';

/** One stored feed event; `seq` grows across every process writing the database. */
export interface FeedEvent {
  seq: number;
  type: FeedEventType;
  thread_id: string | null;
  run_id: string | null;
  data: Record<string, unknown>;
  /** The process that wrote it. */
  origin_pid: number;
  created_at: number;
}

/** How a tool card names and styles its status. */
import type { ToolRunStatus } from '../../stores/chat-types.ts';

/** The label shown on a tool card. */
export const TOOL_STATUS_LABEL: Readonly<Record<ToolRunStatus, string>> = {
  pending: 'Queued',
  awaiting_approval: 'Needs approval',
  running: 'Running',
  done: 'Done',
  error: 'Failed',
  blocked: 'Blocked',
  denied: 'Denied',
  cancelled: 'Cancelled',
  timeout: 'Timed out',
};

/** Statuses shown as a failure, with the error or the blocking reason under the header. */
export const FAILED_STATUSES: ReadonlySet<ToolRunStatus> = new Set([
  'error',
  'blocked',
  'denied',
  'timeout',
]);

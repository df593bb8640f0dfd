/** Handlers of the chat desk's channels: forks, compaction, context meter, checkpoints, `@` completion. */
import type { ThreadSummary } from '../../shared/types/index.ts';
import { proposedChange } from '../checkpoints/proposed-change.ts';
import { WorkbenchError } from '../errors.ts';
import type { InvokeHandlers } from './handlers.ts';
import type { Workbench } from './types.ts';
import { listWorkspaceFiles } from './workspace-files.ts';

type DeskChannel =
  | 'threads.fork'
  | 'threads.compact'
  | 'threads.context'
  | 'checkpoints.list'
  | 'checkpoints.diff'
  | 'checkpoints.revert'
  | 'checkpoints.proposed'
  | 'workspace.files';

/** The desk's part of the handler table. */
export function deskHandlers(
  wb: Workbench,
  threadOrThrow: (threadId: string) => { summary: ThreadSummary },
  workspace: () => string,
): Pick<InvokeHandlers, DeskChannel> {
  return {
    'threads.fork': (a) => {
      threadOrThrow(a.threadId);
      return wb.threads.fork(a);
    },
    'threads.compact': async (a) => {
      const r = await wb.threads.compact({ threadId: a.threadId });
      return {
        compacted: r.compacted,
        before_tokens: r.before_tokens,
        after_tokens: r.after_tokens,
      };
    },
    'threads.context': (a) => wb.threads.context(a),
    'checkpoints.list': (a) => {
      threadOrThrow(a.threadId);
      return wb.checkpoints.list(a);
    },
    'checkpoints.diff': (a) => wb.checkpoints.diff(a),
    'checkpoints.revert': (a) => {
      threadOrThrow(a.threadId);
      return wb.checkpoints.revert(a);
    },
    'checkpoints.proposed': async (a) => {
      const { summary } = threadOrThrow(a.threadId);
      const pending = wb.chat.pendingApprovals({ threadId: a.threadId });
      const approval = pending.find((p) => p.approval_id === a.approvalId);
      if (!approval) throw new WorkbenchError('not_found', 'that approval is no longer waiting');
      return (
        (await proposedChange(summary.workspace, approval.tool_call, approval.working_dirs)) ?? null
      );
    },
    'workspace.files': async (a) => {
      const [files, resources] = await Promise.all([
        listWorkspaceFiles(workspace(), a.query),
        wb.mcp.resourceMentions({ workspace: workspace(), query: a.query }),
      ]);
      // Running servers' resources beside the best file matches, as Claude Code lists them.
      return [...files.slice(0, 6), ...resources.slice(0, 6), ...files.slice(6)];
    },
  };
}

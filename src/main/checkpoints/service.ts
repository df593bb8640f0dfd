/**
 * The checkpoints service behind the Changes view, the revert buttons and `workbench threads revert`
 * (docs/tools.md#checkpoints).
 */
import type {
  CheckpointDiff,
  CheckpointView,
  RevertResultView,
  RevertTargetArgs,
} from '../../shared/types/index.ts';
import { WorkbenchError } from '../errors.ts';
import type { CheckpointStore } from '../store/checkpoint-store.ts';
import { changeOf } from './change-kind.ts';
import { planRevert, revertCheckpoints, type RevertTarget } from './revert.ts';

export interface CheckpointService {
  list(args: { threadId: string }): CheckpointView[];
  /** Per file: before the first and after the last not-yet-reverted write of the target. */
  diff(args: { threadId: string } & RevertTargetArgs): CheckpointDiff[];
  /** Contract: refuses while the thread runs (WorkbenchError conflict); see revertCheckpoints. */
  revert(args: { threadId: string; force?: boolean } & RevertTargetArgs): Promise<RevertResultView>;
}

/** The one target the arguments name. Contract: WorkbenchError invalid_args when none is named. */
export function targetOf(a: RevertTargetArgs): RevertTarget {
  if (a.toolCallId) return { toolCallId: a.toolCallId };
  if (a.path) return { path: a.path, runId: a.runId };
  if (a.runId) return { runId: a.runId };
  throw new WorkbenchError('invalid_args', 'name a tool call, a file or a run to revert');
}

/** Creates the service over the store; `isRunning` guards reverts against a run writing at the same time. */
export function createCheckpointService(o: {
  store: CheckpointStore;
  isRunning: (threadId: string) => boolean;
}): CheckpointService {
  return {
    list: ({ threadId }) =>
      o.store.list(threadId).map((c) => ({
        id: c.id,
        run_id: c.run_id,
        tool_call_id: c.tool_call_id,
        path: c.path,
        change: changeOf(c),
        created_at: c.created_at,
        reverted: c.reverted_at !== null,
        revertable: c.before_known,
      })),
    diff: ({ threadId, ...target }) =>
      planRevert(o.store.list(threadId), targetOf(target)).map((p) => ({
        path: p.path,
        before: p.before?.toString('utf8') ?? null,
        after: p.lastAfter?.toString('utf8') ?? null,
      })),
    async revert({ threadId, force, ...target }) {
      if (o.isRunning(threadId))
        throw new WorkbenchError(
          'conflict',
          'the agent is working on this thread; stop it or wait before reverting',
        );
      return revertCheckpoints(o.store, threadId, targetOf(target), { force });
    },
  };
}

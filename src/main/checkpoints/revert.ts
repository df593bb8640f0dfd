/**
 * Reverting agent writes from their checkpoints (docs/tools.md#checkpoints): one tool call, one file
 * or a whole run. Every file is first checked to still hold what the agent last wrote; a file changed
 * since is a conflict and nothing is written unless the user forces it after seeing the conflict.
 */
import { promises as fs } from 'node:fs';
import { createWorkspace } from '../tools/path-guard.ts';
import type { CheckpointRecord, CheckpointStore } from '../store/checkpoint-store.ts';

/** What to revert: the writes of one tool call, of one file in the thread, or of one run. */
export type RevertTarget =
  { toolCallId: string } | { path: string; runId?: string } | { runId: string };

/** A file that is no longer what the agent left: shown to the user, never silently overwritten. */
export interface RevertConflict {
  path: string;
  /** What the agent last wrote (the content the revert expects to find). */
  expected: string;
  /** What is on disk now; null when the file is gone. */
  actual: string | null;
}

export interface RevertResult {
  status: 'reverted' | 'conflict' | 'nothing';
  /** Paths restored (or removed, when the agent had created them). */
  reverted: string[];
  conflicts: RevertConflict[];
  /** Paths whose content before the write was not kept (too large): left as they are. */
  unavailable: string[];
}

/** One file to restore: the content before its first targeted write, and after its last one. */
interface FilePlan {
  path: string;
  workspace: string;
  before: Buffer | null;
  lastAfter: Buffer;
  ids: number[];
  known: boolean;
}

const matches = (c: CheckpointRecord, t: RevertTarget): boolean => {
  if ('toolCallId' in t) return c.tool_call_id === t.toolCallId;
  if ('path' in t) return c.path === t.path && (t.runId === undefined || c.run_id === t.runId);
  return c.run_id === t.runId;
};

/** The files a revert of `target` touches, in the order they were first written. */
export function planRevert(records: readonly CheckpointRecord[], target: RevertTarget): FilePlan[] {
  const plans = new Map<string, FilePlan>();
  for (const c of records) {
    if (c.reverted_at !== null || !matches(c, target)) continue;
    const key = `${c.workspace}\0${c.path}`;
    const plan = plans.get(key);
    if (!plan) {
      plans.set(key, {
        path: c.path,
        workspace: c.workspace,
        before: c.before,
        lastAfter: c.after,
        ids: [c.id],
        known: c.before_known,
      });
    } else {
      plan.lastAfter = c.after;
      plan.ids.push(c.id);
    }
  }
  return [...plans.values()];
}

async function readOrNull(file: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Reverts `target` in `threadId`.
 * Contract: all or nothing — when any file changed since the agent's last write (or is gone) the
 * result is 'conflict' and no file is touched, unless `force`; paths go through the workspace guard
 * as the agent's own writes did; reverted checkpoints are marked and not reverted again.
 */
export async function revertCheckpoints(
  store: CheckpointStore,
  threadId: string,
  target: RevertTarget,
  opts: { force?: boolean } = {},
): Promise<RevertResult> {
  const plans = planRevert(store.list(threadId), target);
  const result: RevertResult = { status: 'nothing', reverted: [], conflicts: [], unavailable: [] };
  const ready: { plan: FilePlan; file: string; write: (data: Buffer) => Promise<unknown> }[] = [];
  for (const plan of plans) {
    if (!plan.known) {
      result.unavailable.push(plan.path);
      continue;
    }
    const ws = await createWorkspace(plan.workspace);
    const file = await ws.resolve(plan.path, 'write');
    const actual = await readOrNull(file);
    if (!actual || !actual.equals(plan.lastAfter)) {
      result.conflicts.push({
        path: plan.path,
        expected: plan.lastAfter.toString('utf8'),
        actual: actual?.toString('utf8') ?? null,
      });
    }
    ready.push({ plan, file, write: (data) => ws.write(file, data) });
  }
  if (result.conflicts.length && !opts.force) return { ...result, status: 'conflict' };
  for (const { plan, file, write } of ready) {
    if (plan.before === null) await fs.rm(file, { force: true });
    else await write(plan.before);
    result.reverted.push(plan.path);
  }
  store.markReverted(ready.flatMap((r) => r.plan.ids));
  return { ...result, status: result.reverted.length ? 'reverted' : 'nothing' };
}

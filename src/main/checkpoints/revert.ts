/**
 * Reverting agent writes from their checkpoints (docs/tools.md#checkpoints): one tool call, one file
 * or a whole run. Every file is first checked to still hold what the agent last wrote; a file changed
 * since is a conflict and nothing is written unless the user forces it after seeing the conflict.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createWorkspace } from '../tools/path-guard.ts';
import type { Workspace } from '../tools/workspace.ts';
import { READ_NONBLOCKING } from '../fs/read-text-if-file.ts';
import type { CheckpointRecord, CheckpointStore } from '../store/checkpoint-store.ts';

/** What to revert: the writes of one tool call, of one file in the thread, or of one run. */
export type RevertTarget =
  { toolCallId: string } | { path: string; runId?: string } | { runId: string };

/** A file that is no longer what the agent left: shown to the user, never silently overwritten. */
export interface RevertConflict {
  path: string;
  /** What the agent last wrote (the content the revert expects to find); null: a command deleted it. */
  expected: string | null;
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

/**
 * One file to restore: the content before its first targeted write, and after its last one, with
 * git modes for a command's changes (`120000`: a symlink whose content is its target; null after: deleted).
 */
interface FilePlan {
  path: string;
  workspace: string;
  before: Buffer | null;
  beforeMode: string | null;
  lastAfter: Buffer | null;
  lastAfterMode: string | null;
  ids: number[];
  known: boolean;
  /** True when a command touched the file: restored without following a symlink at its place. */
  byCommand: boolean;
}

const LINK = '120000';
const afterOf = (c: CheckpointRecord): Buffer | null =>
  c.kind === 'execute' && !c.after_mode ? null : c.after;

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
        beforeMode: c.before_mode,
        lastAfter: afterOf(c),
        lastAfterMode: c.after_mode,
        ids: [c.id],
        known: c.before_known,
        byCommand: c.kind === 'execute',
      });
    } else {
      plan.lastAfter = afterOf(c);
      plan.lastAfterMode = c.after_mode;
      plan.byCommand ||= c.kind === 'execute';
      plan.ids.push(c.id);
    }
  }
  return [...plans.values()];
}

/** Stands for what is there when it is no regular file: never what the agent wrote, so a conflict. */
const NOT_A_FILE = Buffer.from('[not a regular file: a named pipe, socket or device]');

async function readOrNull(file: string): Promise<Buffer | null> {
  let handle;
  try {
    // Non-blocking: a FIFO put in the file's place (by a command the agent ran) opens at once.
    handle = await fs.open(file, READ_NONBLOCKING);
    const st = await handle.stat();
    if (!st.isFile() && !st.isDirectory()) return NOT_A_FILE;
    return await handle.readFile(); // a folder throws EISDIR, as before
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  } finally {
    await handle?.close();
  }
}

/** What is at `leaf` now without following a symlink there: a link's target, a file's bytes, or null. */
async function readLeaf(leaf: string): Promise<{ data: Buffer | null; link: boolean }> {
  const st = await fs.lstat(leaf).catch(() => undefined);
  if (!st) return { data: null, link: false };
  if (st.isSymbolicLink()) return { data: Buffer.from(await fs.readlink(leaf)), link: true };
  return { data: await readOrNull(leaf), link: false };
}

/** A file to restore: where it is and how to put its "before" back. */
interface Ready {
  plan: FilePlan;
  restore: () => Promise<void>;
}

/**
 * Checks one file and prepares its restore. The leaf of a command's change is handled without
 * following links (its folder goes through the guard), so a symlink comes back as a link.
 */
async function prepare(
  ws: Workspace,
  plan: FilePlan,
): Promise<{ ready: Ready; conflict?: RevertConflict }> {
  const expectLink = plan.lastAfterMode === LINK;
  let leaf: string;
  let actual: { data: Buffer | null; link: boolean };
  if (plan.byCommand) {
    leaf = path.join(await ws.resolve(path.dirname(plan.path), 'write'), path.basename(plan.path));
    actual = await readLeaf(leaf);
  } else {
    leaf = await ws.resolve(plan.path, 'write');
    actual = { data: await readOrNull(leaf), link: false };
  }
  const same =
    plan.lastAfter === null
      ? actual.data === null
      : actual.data !== null && actual.link === expectLink && actual.data.equals(plan.lastAfter);
  const conflict = same
    ? undefined
    : {
        path: plan.path,
        expected: plan.lastAfter?.toString('utf8') ?? null,
        actual: actual.data?.toString('utf8') ?? null,
      };
  const restore = async () => {
    if (plan.before === null) return fs.rm(leaf, { force: true });
    if (!plan.byCommand) return void (await ws.write(leaf, plan.before));
    const st = await fs.lstat(leaf).catch(() => undefined);
    if (st && (st.isSymbolicLink() || plan.beforeMode === LINK)) await fs.rm(leaf, { force: true });
    if (plan.beforeMode === LINK) {
      await fs.mkdir(path.dirname(leaf), { recursive: true });
      return fs.symlink(plan.before.toString('utf8'), leaf);
    }
    await ws.write(leaf, plan.before);
    await fs.chmod(leaf, plan.beforeMode === '100755' ? 0o755 : 0o644);
  };
  return { ready: { plan, restore }, conflict };
}

/**
 * Reverts `target` in `threadId`.
 * Contract: all or nothing — when any file changed since the agent's last write or command (or is
 * gone, or is back after a command deleted it) the result is 'conflict' and no file is touched,
 * unless `force`; paths go through the workspace guard as the agent's own writes did; reverted
 * checkpoints are marked and not reverted again.
 */
export async function revertCheckpoints(
  store: CheckpointStore,
  threadId: string,
  target: RevertTarget,
  opts: { force?: boolean } = {},
): Promise<RevertResult> {
  const plans = planRevert(store.list(threadId), target);
  const result: RevertResult = { status: 'nothing', reverted: [], conflicts: [], unavailable: [] };
  const ready: Ready[] = [];
  for (const plan of plans) {
    if (!plan.known) {
      result.unavailable.push(plan.path);
      continue;
    }
    const prepared = await prepare(await createWorkspace(plan.workspace), plan);
    if (prepared.conflict) result.conflicts.push(prepared.conflict);
    ready.push(prepared.ready);
  }
  if (result.conflicts.length && !opts.force) return { ...result, status: 'conflict' };
  for (const { plan, restore } of ready) {
    await restore();
    result.reverted.push(plan.path);
  }
  store.markReverted(ready.flatMap((r) => r.plan.ids));
  return { ...result, status: result.reverted.length ? 'reverted' : 'nothing' };
}

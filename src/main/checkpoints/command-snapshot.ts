/**
 * Snapshots around each `execute` call (docs/tools.md#checkpoints): the workspace before and after
 * the command in the shadow git store; what differs becomes the call's checkpoints, revertable like
 * the agent's own writes. A snapshot that cannot be taken is reported, never fails the command.
 */
import { MAX_FILE_BYTES } from '../tools/file-io.ts';
import type { CommandSnapshotRecord, NewCheckpoint } from '../store/checkpoint-store.ts';
import { createShadowStore, type ShadowBounds, type ShadowChange } from './shadow-git.ts';

/** Where a command's snapshots go (the run stores them; the trace and the card show a skip). */
export interface CommandSnapshotSink {
  record(snapshot: Omit<CommandSnapshotRecord, 'thread_id' | 'run_id'>, files: NewFile[]): void;
  /** A snapshot was skipped or failed: the trace event `snapshot_skipped`. */
  skipped(reason: string): void;
}

type NewFile = Omit<NewCheckpoint, 'thread_id' | 'run_id'>;

export interface CommandSnapshotOptions {
  workbenchHome: string;
  sink: CommandSnapshotSink;
  bounds?: ShadowBounds;
  git?: string;
  timeoutMs?: number;
}

/**
 * Takes the snapshot before a command and returns the function to call after it, which takes the
 * second, records the change set and resolves the notes the result shows (a skip or failure).
 * Contract: neither step throws.
 */
export type CommandSnapshotter = (
  workspace: string,
  callId: string,
) => Promise<() => Promise<string[]>>;

/** A command in flight in a workspace; `overlapped` once another ran alongside it. */
interface Session {
  overlapped: boolean;
}

const PARALLEL = 'another command ran in the workspace at the same time';

/** Commands in flight per workspace: the changes of commands that overlap cannot be told apart. */
const active = new Map<string, Set<Session>>();

/** Creates the snapshotter. */
export function createCommandSnapshotter(o: CommandSnapshotOptions): CommandSnapshotter {
  return async (workspace, callId) => {
    const others = active.get(workspace) ?? new Set<Session>();
    active.set(workspace, others);
    const session: Session = { overlapped: others.size > 0 };
    for (const s of others) s.overlapped = true;
    others.add(session);
    const base = { workspace, tool_call_id: callId };
    const skip = (reason: string, beforeTree: string | null = null): string[] => {
      o.sink.record({ ...base, before_tree: beforeTree, after_tree: null, skipped: reason }, []);
      o.sink.skipped(reason);
      return [
        `workspace not snapshotted (${reason}): this command's file changes cannot be reverted`,
      ];
    };
    const store = createShadowStore({
      workbenchHome: o.workbenchHome,
      workspace,
      bounds: o.bounds,
      git: o.git,
      timeoutMs: o.timeoutMs,
    });
    const before = session.overlapped ? undefined : await store.snapshot();
    return async () => {
      others.delete(session);
      if (others.size === 0 && active.get(workspace) === others) active.delete(workspace);
      try {
        if (!before || session.overlapped) return skip(PARALLEL);
        if ('skipped' in before) return skip(before.skipped);
        const after = await store.snapshot();
        if ('skipped' in after) return skip(after.skipped, before.tree);
        const changes = await store.changes(before.tree, after.tree);
        o.sink.record(
          { ...base, before_tree: before.tree, after_tree: after.tree, skipped: null },
          changes.map((c) => toCheckpoint(workspace, callId, c)),
        );
        return [];
      } catch (err) {
        return skip(`snapshot failed: ${(err as Error).message}`);
      }
    };
  };
}

/** A changed file as a checkpoint; a "before" over the file limit is not kept (not revertable). */
function toCheckpoint(workspace: string, callId: string, c: ShadowChange): NewFile {
  const tooLarge = c.before !== null && c.before.length > MAX_FILE_BYTES;
  return {
    tool_call_id: callId,
    workspace,
    path: c.path,
    before: tooLarge ? null : c.before,
    before_known: !tooLarge,
    after: c.after ?? Buffer.alloc(0),
    kind: 'execute',
    before_mode: c.beforeMode,
    after_mode: c.afterMode,
  };
}

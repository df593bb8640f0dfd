/** Checkpoints of agent writes as the Changes view and the CLI show them (docs/tools.md#checkpoints). */

/** One agent write. */
export interface CheckpointView {
  id: number;
  run_id: string;
  tool_call_id: string;
  path: string;
  change: 'created' | 'modified' | 'deleted';
  created_at: number;
  reverted: boolean;
  /** False when the content before the write was too large to keep. */
  revertable: boolean;
}

/** A file's content before the first and after the last of the writes asked about. */
export interface CheckpointDiff {
  path: string;
  /** null: the agent created the file. */
  before: string | null;
  /** null: a command deleted the file. */
  after: string | null;
}

/** What the writes of a revert target. */
export interface RevertTargetArgs {
  toolCallId?: string;
  path?: string;
  runId?: string;
}

/** A revert's outcome; on 'conflict' nothing was written. */
export interface RevertResultView {
  status: 'reverted' | 'conflict' | 'nothing';
  reverted: string[];
  conflicts: Array<{ path: string; expected: string | null; actual: string | null }>;
  unavailable: string[];
}

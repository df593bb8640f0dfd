/** What a checkpointed change did to its file (docs/tools.md#checkpoints). */
import type { FileChangeKind } from '../../shared/types/index.ts';
import type { NewCheckpoint } from '../store/checkpoint-store.ts';

type Change = Pick<NewCheckpoint, 'before' | 'before_known' | 'kind' | 'after_mode'>;

/** 'deleted' when a command removed the file, 'created' when it did not exist before. */
export function changeOf(c: Change): FileChangeKind {
  if (c.kind === 'execute' && !c.after_mode) return 'deleted';
  return c.before === null && c.before_known ? 'created' : 'modified';
}

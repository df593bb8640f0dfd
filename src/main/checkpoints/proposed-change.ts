/**
 * The diff an edit or write approval shows (docs/tools.md#checkpoints): the file as it is now and as
 * the pending call would leave it, computed the way write_file and edit_file will write it.
 */
import { promises as fs } from 'node:fs';
import type { CheckpointDiff, ToolCall } from '../../shared/types/index.ts';
import { createWorkspace } from '../tools/path-guard.ts';

/** Largest file an approval diff reads. */
const MAX_DIFF_BYTES = 2 * 1024 * 1024;

/**
 * The proposed change of a `write_file` / `edit_file` call, or undefined for any other call, a path
 * the guard refuses (the workspace and the run's added working directories, `extraRoots`), a file too large to show, or an edit whose old text is not in the file.
 */
export async function proposedChange(
  workspaceRoot: string,
  call: ToolCall,
  extraRoots: readonly string[] = [],
): Promise<CheckpointDiff | undefined> {
  const a = call.args ?? {};
  if (typeof a.path !== 'string' || (call.name !== 'write_file' && call.name !== 'edit_file'))
    return undefined;
  try {
    const ws = await createWorkspace(workspaceRoot, { extraRoots });
    const file = await ws.resolve(a.path, 'read');
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat && (!stat.isFile() || stat.size > MAX_DIFF_BYTES)) return undefined;
    const before = stat ? await fs.readFile(file, 'utf8') : null;
    const path = ws.display(file);
    if (call.name === 'write_file')
      return typeof a.content === 'string' ? { path, before, after: a.content } : undefined;
    if (before === null || typeof a.old_text !== 'string' || typeof a.new_text !== 'string')
      return undefined;
    const at = before.indexOf(a.old_text);
    if (at === -1) return undefined;
    return {
      path,
      before,
      after: before.slice(0, at) + a.new_text + before.slice(at + a.old_text.length),
    };
  } catch {
    return undefined;
  }
}

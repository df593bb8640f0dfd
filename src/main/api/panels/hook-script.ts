/**
 * Reading and saving the script of an executable hook from the hooks panel. Only a hook the panel
 * lists (found by id in the current pipeline) with a script path can be read or written, so the
 * channel never becomes a general file writer. See docs/hooks.md.
 */
import type { HookScript, HookScriptWrite } from '../../../shared/ipc/contract.ts';
import type { HookInfo } from '../../../shared/types/index.ts';
import {
  ConflictError,
  readTextOrNull,
  versionOf,
  writeFileAtomic,
} from '../../fs/atomic-write.ts';
import { WorkbenchError } from '../../errors.ts';

/** The script path of an editable hook. Contract: throws `invalid` for built-ins and settings hooks. */
export function editablePath(hook: HookInfo): string {
  if (hook.dialect !== 'executable' || !hook.path)
    throw new WorkbenchError('invalid_args', `${hook.name} has no script file to edit`);
  return hook.path;
}

/** Reads the hook's script. */
export async function readHookScript(hook: HookInfo): Promise<HookScript> {
  const path = editablePath(hook);
  const content = await readTextOrNull(path);
  if (content === null) throw new WorkbenchError('not_found', `${path} does not exist`);
  return { id: hook.id, path, content, version: versionOf(content) };
}

/**
 * Saves the hook's script atomically, keeping its mode (the executable bit stays).
 * Contract: a file changed since `baseVersion` is not written; the answer is `conflict` with the disk.
 */
export async function writeHookScript(
  hook: HookInfo,
  content: string,
  baseVersion: string,
): Promise<HookScriptWrite> {
  const path = editablePath(hook);
  try {
    await writeFileAtomic(path, content, { expectedVersion: baseVersion, createParents: false });
    return { status: 'saved', script: { id: hook.id, path, content, version: versionOf(content) } };
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
    const disk = err.current ?? '';
    return {
      status: 'conflict',
      script: { id: hook.id, path, content: disk, version: versionOf(err.current) },
    };
  }
}

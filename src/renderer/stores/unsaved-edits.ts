/** Whether any editor (skill, memory, hook script) holds edits that are not on disk. */
import { isDirty } from '../features/memory/memory-model.ts';
import { useHookScript } from '../features/hooks/hook-script-store.ts';
import type { WorkbenchState } from './state.ts';

/** True while any editor holds edits that are not on disk. */
export function hasUnsavedEdits(s: Pick<WorkbenchState, 'skillEditor' | 'memoryEditors'>): boolean {
  const skill = s.skillEditor;
  if (skill && skill.draft !== skill.file.content) return true;
  if (Object.values(s.memoryEditors).some((e) => e && isDirty(e))) return true;
  const hook = useHookScript.getState().editor;
  return Boolean(hook && hook.draft !== hook.content);
}

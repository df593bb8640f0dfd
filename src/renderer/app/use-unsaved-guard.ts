/** Warns before a reload or window close while a skill, memory or hook editor has unsaved edits. */
import { useEffect } from 'react';
import { useWorkbenchStore, type WorkbenchState } from '../stores/store.ts';
import { isDirty } from '../features/memory/memory-model.ts';
import { useHookScript } from '../features/hooks/hook-script-store.ts';

/** True while any editor holds edits that are not on disk. */
export function hasUnsavedEdits(s: WorkbenchState): boolean {
  const skill = s.skillEditor;
  if (skill && skill.draft !== skill.file.content) return true;
  if (Object.values(s.memoryEditors).some((e) => e && isDirty(e))) return true;
  const hook = useHookScript.getState().editor;
  return Boolean(hook && hook.draft !== hook.content);
}

/** Contract: the browser's own "leave site?" prompt shows only when edits would be lost. */
export function useUnsavedGuard(): void {
  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!hasUnsavedEdits(useWorkbenchStore.getState())) return;
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);
}

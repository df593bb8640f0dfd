/** Warns before a reload or window close while a skill, memory or hook editor has unsaved edits. */
import { useEffect } from 'react';
import { useWorkbenchStore } from '../stores/store.ts';
import { hasUnsavedEdits } from '../stores/unsaved-edits.ts';

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

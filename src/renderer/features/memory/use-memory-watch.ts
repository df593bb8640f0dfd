import { useEffect } from 'react';
import { getBridge } from '../../ipc/client.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { shownMemoryPaths, touchesShownMemory } from './memory-change.ts';

/**
 * Re-reads memory when the agent writes a memory file the panel shows (`file_changed`) and when a
 * run ends; an editor with unsaved edits is offered a reload instead of being overwritten.
 */
export function useMemoryWatch(): void {
  useEffect(() => {
    return getBridge().on('agent.event', ({ event: e }) => {
      const s = useWorkbenchStore.getState();
      if (e.event === 'file_changed') {
        const shown = shownMemoryPaths(s.memoryEditors, s.memoryEffective);
        if (!touchesShownMemory(e.data, shown, s.workspace.path)) return;
      } else if (e.event !== 'done') {
        return;
      }
      void s.refreshMemory();
      if (s.memoryTab === 'effective') void s.loadEffective();
    });
  }, []);
}

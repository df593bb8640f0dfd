import { useEffect } from 'react';
import { getBridge } from '../../ipc/client.ts';
import { useWorkbenchStore } from '../../stores/store.ts';

const MEMORY_FILE = /(^|[\\/])(AGENTS|CLAUDE)\.md$/;
const EDIT_TOOLS = new Set(['edit_file', 'write_file']);

/**
 * Re-reads memory when the agent edits AGENTS.md (an edit_file / write_file on it ends) and when a
 * run ends; an editor with unsaved edits is offered a reload instead of being overwritten.
 */
export function useMemoryWatch(): void {
  useEffect(() => {
    const pending = new Set<string>();
    return getBridge().on('agent.event', ({ event: e }) => {
      const s = useWorkbenchStore.getState();
      if (e.event === 'on_tool_start' && e.name && EDIT_TOOLS.has(e.name)) {
        const d = e.data as { args?: { path?: unknown }; tool_call_id: string };
        if (typeof d.args?.path === 'string' && MEMORY_FILE.test(d.args.path))
          pending.add(d.tool_call_id);
      } else if (e.event === 'on_tool_end') {
        const id = (e.data as { tool_call_id: string }).tool_call_id;
        if (pending.delete(id)) void s.refreshMemory();
      } else if (e.event === 'done') {
        void s.refreshMemory();
        if (s.memoryTab === 'effective') void s.loadEffective();
      }
    });
  }, []);
}

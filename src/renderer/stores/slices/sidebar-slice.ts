/** Sidebar: workspace, thread list and search. */
import { confirmDiscard } from '../../components/confirm-discard.ts';
import { hasUnsavedEdits } from '../unsaved-edits.ts';
import type { StateCreator } from 'zustand';
import { call } from '../../ipc/client.ts';
import type { SidebarSlice, WorkbenchState } from '../state.ts';
import { errorMessage } from '../../../shared/error-message.ts';

/** Creates the sidebar slice. */
export const createSidebarSlice: StateCreator<WorkbenchState, [], [], SidebarSlice> = (set, get) => ({
  threads: [],
  search: '',
  workspace: { path: '', recent: [] },

  setSearch(search) {
    set({ search });
  },

  async refreshThreads() {
    try {
      const threads = await call('threads.list', {});
      set({ threads: threads.slice().sort((a, b) => b.updated_at - a.updated_at) });
    } catch (err) {
      get().setBanner(`Could not list threads: ${errorMessage(err)}`);
    }
  },

  async openWorkspace(path) {
    // Another folder means other AGENTS.md, skills and hooks: open editors would lose their edits.
    if (!confirmDiscard(hasUnsavedEdits(get()), 'the files open in the editors')) return;
    try {
      const r = await call('workspace.open', path ? { path } : {});
      if (!r) return;
      set({ workspace: r, activeThreadId: null });
      const trust = await call('trust.status', { workspace: r.path });
      if (!trust.trusted && trust.items.length > 0) get().setTrustPrompt(trust);
    } catch (err) {
      get().setBanner(`Could not open the folder: ${errorMessage(err)}`);
    }
  },

  async deleteThread(threadId) {
    try {
      await call('threads.delete', { threadId });
      if (get().activeThreadId === threadId) set({ activeThreadId: null });
      await get().refreshThreads();
    } catch (err) {
      get().setBanner(`Could not delete: ${errorMessage(err)}`);
    }
  },
});

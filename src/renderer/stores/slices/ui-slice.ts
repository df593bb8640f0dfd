/** UI-only state: dock tab, banner, prompts, focus signals. */
import type { StateCreator } from 'zustand';
import type { UiSlice, WorkbenchState } from '../state.ts';

/** Creates the UI slice. */
export const createUiSlice: StateCreator<WorkbenchState, [], [], UiSlice> = (set) => ({
  app: null,
  connection: 'connecting',
  connectFailures: 0,
  dockTab: 'todos',
  dockOpen: true,
  banner: null,
  trustPrompt: null,
  ready: false,
  searchFocus: 0,
  setDockTab: (dockTab) => set({ dockTab, dockOpen: true }),
  toggleDock: () => set((s) => ({ dockOpen: !s.dockOpen })),
  setBanner: (banner) => set({ banner }),
  focusSearch: () => set((s) => ({ searchFocus: s.searchFocus + 1 })),
  setTrustPrompt: (trustPrompt) => set({ trustPrompt }),
});

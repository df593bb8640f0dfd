/** The one bound zustand store, built from slices. */
import { create } from 'zustand';
import { createChatSlice } from './slices/chat-slice.ts';
import { createSidebarSlice } from './slices/sidebar-slice.ts';
import { createUiSlice } from './slices/ui-slice.ts';
import { createSettingsSlice } from './slices/settings-slice.ts';
import { createTraceSlice } from './slices/trace-slice.ts';
import type { WorkbenchState } from './state.ts';
import { createMemorySlice } from './slices/memory-slice.ts';
import { createSkillsSlice } from './slices/skills-slice.ts';
import { createHooksSlice } from './slices/hooks-slice.ts';

export type { WorkbenchState } from './state.ts';

/** The app store. */
export const useWorkbenchStore = create<WorkbenchState>()((...a) => ({
  ...createChatSlice(...a),
  ...createSidebarSlice(...a),
  ...createUiSlice(...a),
  ...createSettingsSlice(...a),
  ...createTraceSlice(...a),
  ...createMemorySlice(...a),
  ...createSkillsSlice(...a),
  ...createHooksSlice(...a),
}));

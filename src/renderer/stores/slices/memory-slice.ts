/** Memory panel state: the user and workspace AGENTS.md editors and the effective context. */
import type { StateCreator } from 'zustand';
import type { EffectiveContext } from '../../../shared/ipc/contract.ts';
import { call } from '../../ipc/client.ts';
import {
  applyDiskRead,
  isDirty,
  resolveConflict,
  type MemoryEditor,
} from '../../features/memory/memory-model.ts';
import type { WorkbenchState } from '../state.ts';
import { errorMessage } from '../../../shared/error-message.ts';

export type MemoryScope = 'user' | 'workspace';
export type MemoryTab = MemoryScope | 'effective';

export interface MemorySlice {
  memoryTab: MemoryTab;
  memoryEditors: Partial<Record<MemoryScope, MemoryEditor>>;
  memoryEffective: EffectiveContext | null;
  memoryError: string | null;
  setMemoryTab(tab: MemoryTab): void;
  /** Reads both files; open editors follow the disk unless they have unsaved edits. */
  refreshMemory(): Promise<void>;
  editMemory(scope: MemoryScope, text: string): void;
  /** Saves with the base version; a file changed on disk becomes a conflict to resolve. */
  saveMemory(scope: MemoryScope): Promise<void>;
  resolveMemory(scope: MemoryScope, choice: 'mine' | 'theirs'): void;
  loadEffective(): Promise<void>;
}

/** Creates the memory slice. */
export const createMemorySlice: StateCreator<WorkbenchState, [], [], MemorySlice> = (set, get) => {
  const patch = (scope: MemoryScope, fn: (e: MemoryEditor) => MemoryEditor) =>
    set((s) => {
      const e = s.memoryEditors[scope];
      return e ? { memoryEditors: { ...s.memoryEditors, [scope]: fn(e) } } : {};
    });
  return {
    memoryTab: 'workspace',
    memoryEditors: {},
    memoryEffective: null,
    memoryError: null,
    setMemoryTab: (memoryTab) => set({ memoryTab }),
    async refreshMemory() {
      try {
        const [user, workspace] = await Promise.all([
          call('memory.read', { scope: 'user' }),
          call('memory.read', { scope: 'workspace' }),
        ]);
        set((s) => ({
          memoryError: null,
          memoryEditors: {
            user: applyDiskRead(s.memoryEditors.user, user),
            workspace: applyDiskRead(s.memoryEditors.workspace, workspace),
          },
        }));
      } catch (err) {
        set({ memoryError: `Could not read memory: ${errorMessage(err)}` });
      }
    },
    editMemory: (scope, text) => patch(scope, (e) => ({ ...e, draft: text })),
    async saveMemory(scope) {
      const e = get().memoryEditors[scope];
      if (!e || e.saving || e.conflict) return;
      patch(scope, (x) => ({ ...x, saving: true }));
      try {
        const content = e.draft;
        const r = await call('memory.write', { scope, content, baseVersion: e.doc.version });
        patch(scope, (x) =>
          r.status === 'saved'
            ? { ...x, saving: false, doc: r.document, external: null }
            : { ...x, saving: false, conflict: r.document },
        );
        set({ memoryError: null });
      } catch (err) {
        patch(scope, (x) => ({ ...x, saving: false }));
        set({ memoryError: `Could not save: ${errorMessage(err)}` });
      }
    },
    resolveMemory: (scope, choice) => patch(scope, (e) => resolveConflict(e, choice)),
    async loadEffective() {
      try {
        const threadId = get().activeThreadId ?? undefined;
        set({ memoryEffective: await call('memory.effective', threadId ? { threadId } : {}) });
      } catch (err) {
        set({ memoryError: `Could not load the effective context: ${errorMessage(err)}` });
      }
    },
  };
};

export { isDirty };

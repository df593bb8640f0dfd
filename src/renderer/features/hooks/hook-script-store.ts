/** The hook script editor's state: the open script, the user's draft, a save conflict. */
import { create } from 'zustand';
import type { HookScript } from '../../../shared/ipc/contract.ts';
import { call } from '../../ipc/client.ts';
import { errorMessage } from '../../../shared/error-message.ts';

/** One open script. `content` and `version` are what is on disk. */
export interface HookScriptEditor extends HookScript {
  draft: string;
  saving: boolean;
  /** The disk's version after a refused save. */
  conflict: HookScript | null;
}

interface HookScriptState {
  editor: HookScriptEditor | null;
  error: string | null;
  open(id: string | null): Promise<void>;
  edit(draft: string): void;
  save(): Promise<void>;
  resolve(choice: 'mine' | 'theirs'): void;
}

/** Contract: `open` replaces the editor without asking; callers confirm discarding first. */
export const useHookScript = create<HookScriptState>()((set, get) => ({
  editor: null,
  error: null,
  async open(id) {
    if (!id) return set({ editor: null, error: null });
    try {
      const script = await call('hooks.readScript', { id });
      set({
        editor: { ...script, draft: script.content, saving: false, conflict: null },
        error: null,
      });
    } catch (err) {
      set({ error: `Could not open the script: ${errorMessage(err)}` });
    }
  },
  edit: (draft) => set((s) => (s.editor ? { editor: { ...s.editor, draft } } : {})),
  async save() {
    const e = get().editor;
    if (!e || e.saving || e.conflict) return;
    set({ editor: { ...e, saving: true } });
    try {
      const r = await call('hooks.writeScript', {
        id: e.id,
        content: e.draft,
        baseVersion: e.version,
      });
      set((s) => {
        if (!s.editor) return {};
        return r.status === 'saved'
          ? { editor: { ...s.editor, ...r.script, saving: false }, error: null }
          : { editor: { ...s.editor, saving: false, conflict: r.script }, error: null };
      });
    } catch (err) {
      set((s) => ({
        editor: s.editor ? { ...s.editor, saving: false } : null,
        error: `Could not save: ${errorMessage(err)}`,
      }));
    }
  },
  resolve(choice) {
    const e = get().editor;
    if (!e?.conflict) return;
    const disk = e.conflict;
    // "Mine" keeps the draft and rebases it on the disk version, so the next save overwrites.
    set({
      editor:
        choice === 'theirs'
          ? { ...disk, draft: disk.content, saving: false, conflict: null }
          : { ...e, content: disk.content, version: disk.version, conflict: null },
    });
  },
}));

/** The Agents panel's script editor state: the open profile script, the user's draft, a save conflict. */
import { create } from 'zustand';
import type { AgentScript } from '../../../shared/ipc/contract.ts';
import { call } from '../../ipc/client.ts';
import { errorMessage } from '../../../shared/error-message.ts';

/** One open script. `content` and `version` are what is on disk. */
export interface AgentScriptEditor extends AgentScript {
  draft: string;
  saving: boolean;
  /** The disk's version after a refused save. */
  conflict: AgentScript | null;
}

interface AgentScriptState {
  editor: AgentScriptEditor | null;
  error: string | null;
  /** Opens the script the profile `name` names, or closes the editor. */
  open(name: string | null): Promise<void>;
  /** Shows a script just read or created. */
  show(script: AgentScript): void;
  edit(draft: string): void;
  save(): Promise<void>;
  resolve(choice: 'mine' | 'theirs'): void;
}

const editorOf = (script: AgentScript): AgentScriptEditor => ({
  ...script,
  draft: script.content,
  saving: false,
  conflict: null,
});

/** Contract: `open` and `show` replace the editor without asking; callers confirm discarding first. */
export const useAgentScript = create<AgentScriptState>()((set, get) => ({
  editor: null,
  error: null,
  async open(name) {
    if (!name) return set({ editor: null, error: null });
    try {
      set({ editor: editorOf(await call('agents.readScript', { name })), error: null });
    } catch (err) {
      set({ error: `Could not open the script: ${errorMessage(err)}` });
    }
  },
  show: (script) => set({ editor: editorOf(script), error: null }),
  edit: (draft) => set((s) => (s.editor ? { editor: { ...s.editor, draft } } : {})),
  async save() {
    const e = get().editor;
    if (!e || e.saving || e.conflict) return;
    set({ editor: { ...e, saving: true } });
    try {
      const r = await call('agents.writeScript', {
        name: e.name,
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
          ? editorOf(disk)
          : { ...e, content: disk.content, version: disk.version, conflict: null },
    });
  },
}));

/** True when the open script has edits not saved yet. */
export function scriptDirty(): boolean {
  const e = useAgentScript.getState().editor;
  return Boolean(e && e.draft !== e.content);
}

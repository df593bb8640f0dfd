/**
 * State of an editor for one script file on disk (a hook's script, an agent profile's script): the
 * open script, the user's draft, and a save the disk refused because it changed meanwhile.
 */
import { create } from 'zustand';
import { errorMessage } from '../../shared/error-message.ts';

/** What the main process answers for a script: its text and the version a save must be based on. */
export interface ScriptOnDisk {
  content: string;
  version: string;
}

/** One open script. `content` and `version` are what is on disk. */
export type ScriptEditor<S extends ScriptOnDisk> = S & {
  draft: string;
  saving: boolean;
  /** The disk's version after a refused save. */
  conflict: S | null;
};

export interface ScriptEditorState<S extends ScriptOnDisk, K> {
  editor: ScriptEditor<S> | null;
  error: string | null;
  /** Opens the script `key` names, or closes the editor. */
  open(key: K | null): Promise<void>;
  /** Shows a script just read or created. */
  show(script: S): void;
  edit(draft: string): void;
  save(): Promise<void>;
  resolve(choice: 'mine' | 'theirs'): void;
}

/** How the store reads and writes its scripts (IPC channels). */
export interface ScriptIo<S extends ScriptOnDisk, K> {
  read(key: K): Promise<S>;
  write(script: S, draft: string): Promise<{ status: 'saved' | 'conflict'; script: S }>;
}

const editorOf = <S extends ScriptOnDisk>(script: S): ScriptEditor<S> => ({
  ...script,
  draft: script.content,
  saving: false,
  conflict: null,
});

/** Contract: `open` and `show` replace the editor without asking; callers confirm discarding first. */
export function createScriptEditorStore<S extends ScriptOnDisk, K>(io: ScriptIo<S, K>) {
  return create<ScriptEditorState<S, K>>()((set, get) => ({
    editor: null,
    error: null,
    async open(key) {
      if (key === null) return set({ editor: null, error: null });
      try {
        set({ editor: editorOf(await io.read(key)), error: null });
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
        const r = await io.write(e, e.draft);
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
}

/** Skills panel state: the listing, the SKILL.md open in the editor (with conflict handling), actions. */
import type { StateCreator } from 'zustand';
import type { SkillFile, SkillListing } from '../../../shared/ipc/contract.ts';
import { call } from '../../ipc/client.ts';
import type { WorkbenchState } from '../state.ts';
import { errorMessage } from '../../../shared/error-message.ts';

export interface SkillEditor {
  file: SkillFile;
  draft: string;
  conflict: SkillFile | null;
  saving: boolean;
}

export interface SkillsSlice {
  skillListing: SkillListing | null;
  skillEditor: SkillEditor | null;
  skillsError: string | null;
  loadSkills(): Promise<void>;
  openSkill(path: string | null): Promise<void>;
  editSkill(text: string): void;
  saveSkill(): Promise<void>;
  resolveSkill(choice: 'mine' | 'theirs'): void;
  createSkill(scope: 'user' | 'workspace', name: string, description: string): Promise<boolean>;
  deleteSkill(path: string): Promise<void>;
  setSkillEnabled(name: string, enabled: boolean): Promise<void>;
}

/** Creates the skills slice. */
export const createSkillsSlice: StateCreator<WorkbenchState, [], [], SkillsSlice> = (set, get) => {
  const fail = (what: string) => (err: unknown) => set({ skillsError: `${what}: ${errorMessage(err)}` });
  return {
    skillListing: null,
    skillEditor: null,
    skillsError: null,
    async loadSkills() {
      try {
        set({ skillListing: await call('skills.list', {}), skillsError: null });
      } catch (err) {
        fail('Could not list skills')(err);
      }
    },
    async openSkill(path) {
      if (!path) return set({ skillEditor: null });
      try {
        const file = await call('skills.read', { path });
        set({
          skillEditor: { file, draft: file.content, conflict: null, saving: false },
          skillsError: null,
        });
      } catch (err) {
        fail('Could not open the skill')(err);
      }
    },
    editSkill: (draft) =>
      set((s) => (s.skillEditor ? { skillEditor: { ...s.skillEditor, draft } } : {})),
    async saveSkill() {
      const e = get().skillEditor;
      if (!e || e.saving || e.conflict) return;
      set({ skillEditor: { ...e, saving: true } });
      try {
        const r = await call('skills.save', {
          path: e.file.path,
          content: e.draft,
          baseVersion: e.file.version,
        });
        set((s) => ({
          skillsError: null,
          skillEditor:
            s.skillEditor &&
            (r.status === 'saved'
              ? { ...s.skillEditor, saving: false, file: r.document }
              : { ...s.skillEditor, saving: false, conflict: r.document }),
        }));
        if (r.status === 'saved') await get().loadSkills();
      } catch (err) {
        set((s) => ({ skillEditor: s.skillEditor && { ...s.skillEditor, saving: false } }));
        fail('Could not save')(err);
      }
    },
    resolveSkill(choice) {
      const e = get().skillEditor;
      if (!e?.conflict) return;
      set({
        skillEditor:
          choice === 'theirs'
            ? { file: e.conflict, draft: e.conflict.content, conflict: null, saving: false }
            : { ...e, file: e.conflict, conflict: null },
      });
    },
    async createSkill(scope, name, description) {
      try {
        const view = await call('skills.create', { scope, name, description });
        await get().loadSkills();
        await get().openSkill(view.path);
        return true;
      } catch (err) {
        fail('Could not create the skill')(err);
        return false;
      }
    },
    async deleteSkill(path) {
      try {
        await call('skills.delete', { path });
        if (get().skillEditor?.file.path === path) set({ skillEditor: null });
        await get().loadSkills();
      } catch (err) {
        fail('Could not delete the skill')(err);
      }
    },
    async setSkillEnabled(name, enabled) {
      // Optimistic: the switch moves at once; the reload (also after a failure) tells the truth.
      set((s) =>
        s.skillListing
          ? {
              skillListing: {
                ...s.skillListing,
                skills: s.skillListing.skills.map((k) => (k.name === name ? { ...k, enabled } : k)),
              },
            }
          : {},
      );
      try {
        await call('skills.setEnabled', { name, enabled });
      } catch (err) {
        fail('Could not switch the skill')(err);
      }
      await get().loadSkills();
    },
  };
};

/**
 * The memory editor's pure state rules: dirty tracking, what a fresh read from disk does to an open
 * editor (replace when clean, offer a reload when dirty) and how a conflict is resolved.
 */
import type { MemoryDocument } from '../../../shared/ipc/contract.ts';

export interface MemoryEditor {
  /** The file as last read or saved: its version is the save's baseVersion. */
  doc: MemoryDocument;
  draft: string;
  /** Theirs, after a save was refused because the file changed on disk. */
  conflict: MemoryDocument | null;
  /** A newer file on disk (e.g. the agent edited it) while the user has unsaved edits. */
  external: MemoryDocument | null;
  saving: boolean;
}

/** A fresh editor over a document just read. */
export const openEditor = (doc: MemoryDocument): MemoryEditor => ({
  doc,
  draft: doc.content,
  conflict: null,
  external: null,
  saving: false,
});

/** Unsaved edits? */
export const isDirty = (e: MemoryEditor): boolean => e.draft !== e.doc.content;

/**
 * Applies a fresh read from disk.
 * Contract: a clean editor follows the disk; a dirty one keeps the draft and records `external`.
 */
export function applyDiskRead(e: MemoryEditor | undefined, disk: MemoryDocument): MemoryEditor {
  // Another file (the workspace changed): start over on it.
  if (!e || disk.path !== e.doc.path) return openEditor(disk);
  if (disk.version === e.doc.version) return e.external ? { ...e, external: null } : e;
  if (!isDirty(e)) return openEditor(disk);
  if (disk.content === e.draft) return openEditor(disk);
  return { ...e, external: disk };
}

/** Resolves a conflict: 'theirs' drops the draft; 'mine' keeps it, based on their version (the next save overwrites). */
export function resolveConflict(e: MemoryEditor, choice: 'mine' | 'theirs'): MemoryEditor {
  const theirs = e.conflict ?? e.external;
  if (!theirs) return e;
  if (choice === 'theirs') return openEditor(theirs);
  return { ...e, doc: theirs, conflict: null, external: null };
}

/** A rough token count of the text (characters / 4), as the workbench estimates. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

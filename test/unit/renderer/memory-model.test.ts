import { describe, expect, it } from 'vitest';
import type { MemoryDocument } from '../../../src/shared/ipc/contract.ts';
import {
  applyDiskRead,
  estimateTokens,
  isDirty,
  openEditor,
  resolveConflict,
} from '../../../src/renderer/features/memory/memory-model.ts';

const doc = (content: string, version = content ? `v-${content}` : ''): MemoryDocument => ({
  scope: 'workspace',
  path: '/w/AGENTS.md',
  content,
  version,
  exists: Boolean(content),
});

describe('memory editor model', () => {
  it('tracks unsaved edits', () => {
    const e = openEditor(doc('a'));
    expect(isDirty(e)).toBe(false);
    expect(isDirty({ ...e, draft: 'b' })).toBe(true);
  });

  it('a clean editor follows the disk (the agent edited AGENTS.md)', () => {
    const e = applyDiskRead(openEditor(doc('a')), doc('agent wrote this'));
    expect(e.draft).toBe('agent wrote this');
    expect(e.external).toBeNull();
  });

  it('a dirty editor keeps the draft and is offered a reload', () => {
    const dirty = { ...openEditor(doc('a')), draft: 'mine' };
    const e = applyDiskRead(dirty, doc('theirs'));
    expect(e.draft).toBe('mine');
    expect(e.external?.content).toBe('theirs');
    expect(resolveConflict(e, 'theirs')).toMatchObject({
      draft: 'theirs',
      external: null,
      doc: { version: 'v-theirs' },
    });
    const kept = resolveConflict(e, 'mine');
    expect(kept).toMatchObject({ draft: 'mine', external: null, doc: { version: 'v-theirs' } });
    expect(isDirty(kept)).toBe(true);
  });

  it('the same version read again changes nothing', () => {
    const e = { ...openEditor(doc('a')), draft: 'x' };
    expect(applyDiskRead(e, doc('a'))).toBe(e);
  });

  it('a disk version equal to the draft is simply adopted', () => {
    const e = applyDiskRead({ ...openEditor(doc('a')), draft: 'same' }, doc('same'));
    expect(isDirty(e)).toBe(false);
    expect(e.doc.version).toBe('v-same');
  });

  it('resolves a save conflict with mine (based on theirs) or theirs', () => {
    const e = { ...openEditor(doc('a')), draft: 'mine', conflict: doc('theirs') };
    expect(resolveConflict(e, 'mine')).toMatchObject({
      draft: 'mine',
      conflict: null,
      doc: { content: 'theirs' },
    });
    expect(resolveConflict(e, 'theirs')).toMatchObject({ draft: 'theirs', conflict: null });
  });

  it('estimates tokens as characters / 4', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcdefgh')).toBe(2);
    expect(estimateTokens('abcde')).toBe(2);
  });

  it('a different file (the workspace changed) replaces the editor', () => {
    const e = { ...openEditor(doc('a')), draft: 'x' };
    const other = { ...doc('b'), path: '/other/AGENTS.md' };
    expect(applyDiskRead(e, other)).toMatchObject({
      draft: 'b',
      external: null,
      doc: { path: '/other/AGENTS.md' },
    });
  });
});

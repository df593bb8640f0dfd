import { describe, expect, it } from 'vitest';
import type { EffectiveContext, MemoryDocument } from '../../../src/shared/ipc/contract.ts';
import { openEditor } from '../../../src/renderer/features/memory/memory-model.ts';
import {
  shownMemoryPaths,
  touchesShownMemory,
} from '../../../src/renderer/features/memory/memory-change.ts';

const doc = (scope: 'user' | 'workspace', path: string): MemoryDocument => ({
  scope,
  path,
  content: 'x',
  version: 'v',
  exists: true,
});
const editors = {
  user: openEditor(doc('user', '/home/me/.workbench/AGENTS.md')),
  workspace: openEditor(doc('workspace', '/w/CLAUDE.md')),
};
const effective: EffectiveContext = {
  system: null,
  memory: {
    text: '',
    tokens: 0,
    sources: [
      { path: '/shared/team/AGENTS.md', scope: 'extra', exists: true, bytes: 1, truncated: false },
    ],
  },
};

describe('the memory watch reload decision', () => {
  const shown = shownMemoryPaths(editors, effective);

  it('lists the files open in the editors and the effective context sources', () => {
    expect(shown.sort()).toEqual([
      '/home/me/.workbench/AGENTS.md',
      '/shared/team/AGENTS.md',
      '/w/CLAUDE.md',
    ]);
  });

  it('reloads when the agent writes a shown memory file, named relative to the workspace', () => {
    expect(
      touchesShownMemory(
        { path: 'CLAUDE.md', change: 'modified', tool_call_id: 'c1' },
        shown,
        '/w',
      ),
    ).toBe(true);
    expect(touchesShownMemory({ path: 'CLAUDE.md', change: 'created' }, shown, '/w/')).toBe(true);
  });

  it('reloads for a shown file outside the workspace, named by its absolute path', () => {
    expect(
      touchesShownMemory({ path: '/shared/team/AGENTS.md', change: 'modified' }, shown, '/w'),
    ).toBe(true);
  });

  it('ignores other files, including memory files the panel does not show', () => {
    expect(touchesShownMemory({ path: 'src/index.ts', change: 'modified' }, shown, '/w')).toBe(
      false,
    );
    expect(touchesShownMemory({ path: 'docs/AGENTS.md', change: 'created' }, shown, '/w')).toBe(
      false,
    );
    expect(touchesShownMemory({ path: 'AGENTS.md', change: 'created' }, shown, '/w')).toBe(false);
  });

  it('compares Windows paths with either slash', () => {
    const win = shownMemoryPaths(
      { workspace: openEditor(doc('workspace', 'C:\\w\\AGENTS.md')) },
      null,
    );
    expect(touchesShownMemory({ path: 'AGENTS.md', change: 'modified' }, win, 'C:\\w')).toBe(true);
  });
});

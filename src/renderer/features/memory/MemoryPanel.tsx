import { useEffect } from 'react';
import { useWorkbenchStore } from '../../stores/store.ts';
import type { MemoryTab } from '../../stores/slices/memory-slice.ts';
import { EffectiveContext } from './EffectiveContext.tsx';
import { MemoryEditorPane } from './MemoryEditorPane.tsx';
import { isDirty } from './memory-model.ts';
import { useMemoryWatch } from './use-memory-watch.ts';
import '../../styles/panels.css';

const TABS: Array<{ id: MemoryTab; label: string }> = [
  { id: 'workspace', label: 'Workspace AGENTS.md' },
  { id: 'user', label: 'User AGENTS.md' },
  { id: 'effective', label: 'Effective context' },
];

/** The Memory tab: user and workspace AGENTS.md in Monaco, and the effective context. */
export function MemoryPanel() {
  const tab = useWorkbenchStore((s) => s.memoryTab);
  const setTab = useWorkbenchStore((s) => s.setMemoryTab);
  const refresh = useWorkbenchStore((s) => s.refreshMemory);
  const editors = useWorkbenchStore((s) => s.memoryEditors);
  const error = useWorkbenchStore((s) => s.memoryError);
  useMemoryWatch();
  const workspace = useWorkbenchStore((s) => s.workspace.path);
  useEffect(() => void refresh(), [refresh, workspace]);
  return (
    <div className="panel dock-wide" data-testid="memory-panel">
      <div className="subtabs" role="tablist" aria-label="Memory files">
        {TABS.map((t) => {
          const e = t.id === 'effective' ? undefined : editors[t.id];
          return (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={tab === t.id}
              className={`subtab${tab === t.id ? ' active' : ''}`}
              onClick={() => setTab(t.id)}
              data-testid={`memory-tab-${t.id}`}
            >
              {t.label}
              {e && isDirty(e) ? ' ●' : ''}
            </button>
          );
        })}
      </div>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {tab === 'effective' ? <EffectiveContext /> : <MemoryEditorPane key={tab} scope={tab} />}
    </div>
  );
}

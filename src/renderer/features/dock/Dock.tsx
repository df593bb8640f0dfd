import type { DockTab } from '../../stores/state.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { TodosPanel } from '../todos/TodosPanel.tsx';
import { SettingsPanel } from '../settings/SettingsPanel.tsx';
import { TracePanel } from '../trace/TracePanel.tsx';
import { MemoryPanel } from '../memory/MemoryPanel.tsx';
import { SkillsPanel } from '../skills/SkillsPanel.tsx';
import { HooksPanel } from '../hooks/HooksPanel.tsx';
import { AgentsPanel } from '../agents/AgentsPanel.tsx';
import { ChangesPanel } from '../changes/ChangesPanel.tsx';

const TABS: Array<{ id: DockTab; label: string }> = [
  { id: 'todos', label: 'Todos' },
  { id: 'trace', label: 'Trace' },
  { id: 'changes', label: 'Changes' },
  { id: 'memory', label: 'Memory' },
  { id: 'skills', label: 'Skills' },
  { id: 'agents', label: 'Agents' },
  { id: 'hooks', label: 'Hooks' },
  { id: 'settings', label: 'Settings' },
];

/** The right dock: Todos, Trace, Memory, Skills, Agents, Hooks and Settings tabs. */
export function Dock() {
  const tab = useWorkbenchStore((s) => s.dockTab);
  const setTab = useWorkbenchStore((s) => s.setDockTab);
  return (
    <aside className="dock" aria-label="Panels">
      <div className="tabs" role="tablist">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            className={`tab${tab === t.id ? ' active' : ''}`}
            onClick={() => setTab(t.id)}
            data-testid={`tab-${t.id}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="dock-body" role="tabpanel">
        {tab === 'todos' && <TodosPanel />}
        {tab === 'settings' && <SettingsPanel />}
        {tab === 'trace' && <TracePanel />}
        {tab === 'changes' && <ChangesPanel />}
        {tab === 'memory' && <MemoryPanel />}
        {tab === 'skills' && <SkillsPanel />}
        {tab === 'agents' && <AgentsPanel />}
        {tab === 'hooks' && <HooksPanel />}
      </div>
    </aside>
  );
}

import { useEffect, useState } from 'react';
import { useWorkbenchStore } from '../../stores/store.ts';
import { HookRow } from './HookRow.tsx';
import { HookRunsList } from './HookRunsList.tsx';
import { NewHookForm } from './NewHookForm.tsx';
import { HookScriptEditor } from './HookScriptEditor.tsx';
import { useHooksWatch } from './use-hooks-watch.ts';
import { PanelToolbar } from '../../components/PanelToolbar.tsx';
import '../../styles/panels.css';

/** The Hooks tab: the whole pipeline in order, switches, trust, templates, tests and recent runs. */
export function HooksPanel() {
  const listing = useWorkbenchStore((s) => s.hookListing);
  const runs = useWorkbenchStore((s) => s.hookRuns);
  const error = useWorkbenchStore((s) => s.hooksError);
  const load = useWorkbenchStore((s) => s.loadHooks);
  const loadRuns = useWorkbenchStore((s) => s.loadHookRuns);
  const disableAll = useWorkbenchStore((s) => s.setDisableAllHooks);
  const trust = useWorkbenchStore((s) => s.trustWorkspace);
  const [creating, setCreating] = useState(false);
  const refresh = () => {
    void load();
    void loadRuns();
  };
  const workspace = useWorkbenchStore((s) => s.workspace.path);
  useEffect(refresh, [load, loadRuns, workspace]);
  useHooksWatch();
  const untrusted = listing?.hooks.filter((h) => !h.trusted).length ?? 0;
  return (
    <div className="panel dock-wide" data-testid="hooks-panel">
      <PanelToolbar
        onRefresh={refresh}
        newLabel="New hook"
        onNew={() => setCreating(true)}
        creating={creating}
        newTestId="new-hook"
        error={error}
      >
        <label className="inline switch-label">
          <input
            type="checkbox"
            checked={listing?.disableAllHooks ?? false}
            onChange={(e) => void disableAll(e.target.checked)}
            data-testid="hooks-disable-all"
          />
          Disable all user hooks
        </label>
      </PanelToolbar>
      {listing && !listing.trusted && untrusted > 0 && (
        <div className="warning trust" data-testid="hooks-untrusted">
          <span>
            This workspace is not trusted: its {untrusted} hook(s) never run, not even to ask their
            event.
          </span>
          <button type="button" onClick={() => void trust()} data-testid="hooks-trust">
            Trust this workspace
          </button>
        </div>
      )}
      {listing?.disableAllHooks && (
        <p className="warning small">All user hooks are off; built-in middleware still runs.</p>
      )}
      {creating && <NewHookForm onDone={() => setCreating(false)} />}
      <HookScriptEditor />
      <h3 className="section-title">Pipeline (outermost first)</h3>
      <ol className="card-list" data-testid="hook-list">
        {listing?.hooks.map((h, i) => (
          <HookRow key={h.id} hook={h} index={i} allOff={listing.disableAllHooks} />
        ))}
      </ol>
      <h3 className="section-title">
        Recent runs <span className="muted small">({runs.length})</span>
      </h3>
      <HookRunsList runs={runs} />
    </div>
  );
}

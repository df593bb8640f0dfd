import { useEffect, useState, type CSSProperties } from 'react';
import { X } from 'lucide-react';
import { useWorkbenchStore } from '../stores/store.ts';
import { Sidebar } from '../features/sidebar/Sidebar.tsx';
import { ChatView } from '../features/chat/ChatView.tsx';
import { Dock } from '../features/dock/Dock.tsx';
import { Onboarding } from '../features/settings/Onboarding.tsx';
import { TrustPrompt } from '../features/trust/TrustPrompt.tsx';
import { TraceFullView, traceWindowThread } from '../features/trace/TraceFullView.tsx';
import { LIMITS, useLayout } from '../features/layout/layout-store.ts';
import { Splitter } from '../features/layout/Splitter.tsx';
import { bootstrap } from './bootstrap.ts';
import { useShortcuts } from './use-shortcuts.ts';
import { useTheme } from './use-theme.ts';
import { useUnsavedGuard } from './use-unsaved-guard.ts';

/** The workbench layout: sidebar, chat, dock with resizable splitters; banner and modals on top. */
export function App() {
  const banner = useWorkbenchStore((s) => s.banner);
  const setBanner = useWorkbenchStore((s) => s.setBanner);
  const onboarding = useWorkbenchStore((s) => s.onboarding);
  const connection = useWorkbenchStore((s) => s.connection);
  const failures = useWorkbenchStore((s) => s.connectFailures);
  const dockOpen = useWorkbenchStore((s) => s.dockOpen);
  const ready = useWorkbenchStore((s) => s.ready);
  const layout = useLayout();
  const [traceThread] = useState(() => traceWindowThread(location.hash));
  useEffect(() => bootstrap(), []);
  // The Electron trace window: once started, show the thread it was opened for.
  useEffect(() => {
    if (traceThread && ready) void useWorkbenchStore.getState().openThread(traceThread);
  }, [traceThread, ready]);
  useShortcuts();
  useTheme();
  useUnsavedGuard();
  const style = {
    '--sidebar-w': `${layout.sidebarOpen ? layout.sidebarWidth : 0}px`,
    '--dock-w': `${layout.dockWidth}px`,
  } as CSSProperties;
  if (traceThread) {
    return (
      <div className="app" style={style} data-testid="app" data-ready={ready}>
        <TraceFullView standalone />
      </div>
    );
  }
  return (
    <div className="app" style={style} data-testid="app" data-ready={ready}>
      {layout.sidebarOpen && (
        <>
          <Sidebar />
          <Splitter
            label="Resize sidebar"
            value={layout.sidebarWidth}
            {...LIMITS.sidebar}
            direction={1}
            onChange={layout.setSidebarWidth}
            testId="splitter-sidebar"
          />
        </>
      )}
      {layout.traceFull ? (
        <TraceFullView />
      ) : (
        <>
          <ChatView />
          {dockOpen && (
            <>
              <Splitter
                label="Resize panels"
                value={layout.dockWidth}
                {...LIMITS.dock}
                direction={-1}
                onChange={layout.setDockWidth}
                testId="splitter-dock"
              />
              <Dock />
            </>
          )}
        </>
      )}
      {connection === 'closed' && (
        <div className="banner warning" role="status" data-testid="connection-lost">
          {failures >= 3
            ? 'Cannot reach the workbench. If `workbench serve` restarted, open the new URL it printed (the token changed).'
            : 'Connection to the workbench lost — reconnecting…'}
        </div>
      )}
      {banner && (
        <div className="banner error" role="alert" data-testid="banner">
          <span>{banner}</span>
          <button type="button" className="link-button" onClick={() => setBanner(null)} aria-label="Dismiss">
            <X size={14} aria-hidden />
          </button>
        </div>
      )}
      {onboarding && <Onboarding />}
      <TrustPrompt />
    </div>
  );
}

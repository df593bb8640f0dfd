import { useEffect } from 'react';
import { useWorkbenchStore } from '../stores/store.ts';
import { Sidebar } from '../features/sidebar/Sidebar.tsx';
import { ChatView } from '../features/chat/ChatView.tsx';
import { Dock } from '../features/dock/Dock.tsx';
import { Onboarding } from '../features/settings/Onboarding.tsx';
import { TrustPrompt } from '../features/trust/TrustPrompt.tsx';
import { bootstrap } from './bootstrap.ts';
import { useShortcuts } from './use-shortcuts.ts';
import { useTheme } from './use-theme.ts';

/** The workbench layout: sidebar, chat, dock; banner and modals on top. */
export function App() {
  const banner = useWorkbenchStore((s) => s.banner);
  const setBanner = useWorkbenchStore((s) => s.setBanner);
  const onboarding = useWorkbenchStore((s) => s.onboarding);
  const connection = useWorkbenchStore((s) => s.connection);
  const failures = useWorkbenchStore((s) => s.connectFailures);
  const dockOpen = useWorkbenchStore((s) => s.dockOpen);
  const ready = useWorkbenchStore((s) => s.ready);
  const toggleDock = useWorkbenchStore((s) => s.toggleDock);
  useEffect(() => bootstrap(), []);
  useShortcuts();
  useTheme();
  return (
    <div className={`app${dockOpen ? '' : ' dock-closed'}`} data-testid="app" data-ready={ready}>
      <Sidebar />
      <ChatView />
      {dockOpen && <Dock />}
      <button type="button" className="dock-toggle" onClick={toggleDock} aria-label={dockOpen ? 'Hide panels' : 'Show panels'} title={dockOpen ? 'Hide panels' : 'Show panels'}>
        {dockOpen ? '›' : '‹'}
      </button>
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
            ✕
          </button>
        </div>
      )}
      {onboarding && <Onboarding />}
      <TrustPrompt />
    </div>
  );
}

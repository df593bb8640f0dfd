/** The always-visible buttons that hide and show the sidebar and the panels dock. */
import { PanelLeftClose, PanelLeftOpen, PanelRightClose, PanelRightOpen } from 'lucide-react';
import { useWorkbenchStore } from '../../stores/store.ts';
import { useLayout } from './layout-store.ts';

/** Sidebar and dock toggles for the chat header. */
export function LayoutToggles() {
  const dockOpen = useWorkbenchStore((s) => s.dockOpen);
  const toggleDock = useWorkbenchStore((s) => s.toggleDock);
  const sidebarOpen = useLayout((s) => s.sidebarOpen);
  const toggleSidebar = useLayout((s) => s.toggleSidebar);
  const sidebarLabel = sidebarOpen ? 'Hide sidebar' : 'Show sidebar';
  const dockLabel = dockOpen ? 'Hide panels' : 'Show panels';
  return (
    <div className="layout-toggles">
      <button
        type="button"
        className="icon-button layout-toggle"
        onClick={toggleSidebar}
        aria-label={sidebarLabel}
        title={sidebarLabel}
        aria-expanded={sidebarOpen}
        data-testid="sidebar-toggle"
      >
        {sidebarOpen ? (
          <PanelLeftClose size={16} aria-hidden />
        ) : (
          <PanelLeftOpen size={16} aria-hidden />
        )}
      </button>
      <button
        type="button"
        className="icon-button layout-toggle dock-toggle"
        onClick={toggleDock}
        aria-label={dockLabel}
        title={dockLabel}
        aria-expanded={dockOpen}
        data-testid="dock-toggle"
      >
        {dockOpen ? (
          <PanelRightClose size={16} aria-hidden />
        ) : (
          <PanelRightOpen size={16} aria-hidden />
        )}
      </button>
    </div>
  );
}

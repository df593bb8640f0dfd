import type { ReactNode } from 'react';

interface PanelToolbarProps {
  /** What stands on the left: a summary or a switch. */
  children: ReactNode;
  onRefresh: () => void;
  /** Label of the "New …" button, e.g. "New skill". */
  newLabel: string;
  onNew: () => void;
  creating: boolean;
  newTestId: string;
  error?: string | null;
}

/** The toolbar of a list panel (skills, hooks): its summary, Refresh, New …, and the last error. */
export function PanelToolbar({
  children,
  onRefresh,
  newLabel,
  onNew,
  creating,
  newTestId,
  error,
}: PanelToolbarProps) {
  return (
    <>
      <div className="panel-toolbar">
        {children}
        <span className="spacer" />
        <button type="button" onClick={onRefresh}>
          Refresh
        </button>
        <button
          type="button"
          className="primary"
          onClick={onNew}
          disabled={creating}
          data-testid={newTestId}
        >
          {newLabel}
        </button>
      </div>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

import { lazy, Suspense } from 'react';

const ConflictDiff = lazy(() => import('./ConflictDiff.tsx'));

export interface ConflictBarProps {
  /** What happened, e.g. "AGENTS.md changed on disk since you opened it." */
  title: string;
  theirs: string;
  mine: string;
  language?: string;
  mineLabel?: string;
  theirsLabel?: string;
  onChoose(choice: 'mine' | 'theirs'): void;
}

/** Both versions of a file that changed under the user's edits, and the choice between them. */
export function ConflictBar({
  title,
  theirs,
  mine,
  language,
  mineLabel = 'Keep mine',
  theirsLabel = 'Use theirs',
  onChoose,
}: ConflictBarProps) {
  return (
    <div className="conflict" role="alert" data-testid="conflict">
      <p className="conflict-title">{title}</p>
      <div className="conflict-legend muted">
        <span>On disk (theirs)</span>
        <span>Your edits (mine)</span>
      </div>
      <Suspense fallback={<p className="muted">Loading diff…</p>}>
        <ConflictDiff theirs={theirs} mine={mine} language={language} />
      </Suspense>
      <div className="inline">
        <button
          type="button"
          className="primary"
          onClick={() => onChoose('mine')}
          data-testid="conflict-mine"
        >
          {mineLabel}
        </button>
        <button type="button" onClick={() => onChoose('theirs')} data-testid="conflict-theirs">
          {theirsLabel}
        </button>
      </div>
    </div>
  );
}

import { lazy, Suspense, useEffect, useState } from 'react';
import type { CheckpointDiff } from '../../../shared/types/index.ts';
import { call } from '../../ipc/client.ts';
import '../chat/desk.css';

const loadDiff = () => import('../../components/MonacoDiff.tsx');
const MonacoDiff = lazy(loadDiff);

/** The real diff of a pending write or edit: the file now against what the call would leave. */
export function ApprovalDiff({ threadId, approvalId }: { threadId: string; approvalId: string }) {
  const [diff, setDiff] = useState<CheckpointDiff | null>(null);
  useEffect(() => {
    let live = true;
    // Monaco is large: start loading it while the diff is computed.
    void loadDiff();
    call('checkpoints.proposed', { threadId, approvalId })
      .then((d) => live && setDiff(d))
      .catch(() => live && setDiff(null));
    return () => {
      live = false;
    };
  }, [threadId, approvalId]);
  if (!diff) return null;
  return (
    <div className="approval-diff" data-testid="approval-diff" data-path={diff.path}>
      <div className="diff-caption muted">
        {diff.before === null ? `New file ${diff.path}` : `Changes to ${diff.path}`}
      </div>
      <Suspense fallback={<p className="muted">Loading diff…</p>}>
        <MonacoDiff
          before={diff.before ?? ''}
          after={diff.after ?? ''}
          path={diff.path}
          height={200}
        />
      </Suspense>
    </div>
  );
}

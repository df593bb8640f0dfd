import { lazy, Suspense, useState } from 'react';
import type { RevertResultView, RevertTargetArgs } from '../../../shared/types/index.ts';
import { call } from '../../ipc/client.ts';
import { errorMessage } from '../../../shared/error-message.ts';
import { checkpointsChanged } from './changes-events.ts';
import '../chat/desk.css';

const MonacoDiff = lazy(() => import('../../components/MonacoDiff.tsx'));

/** A conflict of a revert: what the agent left against what is on disk now, and the choice. */
function RevertConflict({
  result,
  onForce,
  onKeep,
}: {
  result: RevertResultView;
  onForce: () => void;
  onKeep: () => void;
}) {
  return (
    <div className="revert-conflict" role="alert" data-testid="revert-conflict">
      <p>
        {result.conflicts.length === 1 ? 'This file has' : 'These files have'} changed since the
        agent wrote {result.conflicts.length === 1 ? 'it' : 'them'}. Nothing was reverted.
      </p>
      {result.conflicts.map((c) => (
        <div key={c.path} className="revert-conflict-file">
          <div className="diff-caption">
            <code>{c.path}</code>{' '}
            {c.actual === null
              ? '— deleted since'
              : '— the agent’s version (left) against the file now (right)'}
          </div>
          {c.actual !== null && (
            <Suspense fallback={<p className="muted">Loading diff…</p>}>
              <MonacoDiff
                before={c.expected ?? ''}
                after={c.actual}
                path={c.path}
                height={180}
                sideBySide
              />
            </Suspense>
          )}
        </div>
      ))}
      <div className="revert-actions">
        <button type="button" className="danger" data-testid="revert-force" onClick={onForce}>
          Revert anyway (discard the changes since)
        </button>
        <button type="button" data-testid="revert-keep" onClick={onKeep}>
          Keep the file as it is
        </button>
      </div>
    </div>
  );
}

/**
 * Reverts a tool call, a file or a run from its checkpoints (docs/tools.md#checkpoints); shows the
 * conflict when a file changed since, and only overwrites when the user says so.
 */
export function RevertButton({
  threadId,
  target,
  label = 'Revert',
  title,
  testId = 'revert',
}: {
  threadId: string;
  target: RevertTargetArgs;
  label?: string;
  title?: string;
  testId?: string;
}) {
  const [state, setState] = useState<
    | { kind: 'idle' }
    | { kind: 'busy' }
    | { kind: 'done'; text: string }
    | { kind: 'conflict'; result: RevertResultView }
  >({ kind: 'idle' });
  const run = async (force: boolean) => {
    setState({ kind: 'busy' });
    try {
      const result = await call('checkpoints.revert', { threadId, ...target, force });
      if (result.status === 'conflict') return setState({ kind: 'conflict', result });
      checkpointsChanged();
      const skipped = result.unavailable.length
        ? ` (${result.unavailable.join(', ')} too large to restore)`
        : '';
      setState({
        kind: 'done',
        text:
          result.status === 'reverted'
            ? `Reverted ${result.reverted.join(', ')}${skipped}`
            : `Nothing to revert${skipped}`,
      });
    } catch (err) {
      setState({ kind: 'done', text: `Could not revert: ${errorMessage(err)}` });
    }
  };
  return (
    <div className="revert">
      {state.kind === 'done' ? (
        <span className="revert-status muted" role="status" data-testid={`${testId}-status`}>
          {state.text}
        </span>
      ) : (
        <button
          type="button"
          className="link-button"
          data-testid={testId}
          title={title}
          disabled={state.kind === 'busy'}
          onClick={() => void run(false)}
        >
          {label}
        </button>
      )}
      {state.kind === 'conflict' && (
        <RevertConflict
          result={state.result}
          onForce={() => void run(true)}
          onKeep={() => setState({ kind: 'idle' })}
        />
      )}
    </div>
  );
}

import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import type { CheckpointDiff, CheckpointView } from '../../../shared/types/index.ts';
import { call } from '../../ipc/client.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { errorMessage } from '../../../shared/error-message.ts';
import { onCheckpointsChanged } from './changes-events.ts';
import { RevertButton } from './RevertButton.tsx';
import '../chat/desk.css';

const MonacoDiff = lazy(() => import('../../components/MonacoDiff.tsx'));

/** The checkpoints of one file, oldest first. */
interface FileGroup {
  path: string;
  writes: CheckpointView[];
}

/** Files in the order the agent first changed them. */
export function groupByFile(list: readonly CheckpointView[]): FileGroup[] {
  const groups = new Map<string, FileGroup>();
  for (const c of list) {
    const g = groups.get(c.path) ?? { path: c.path, writes: [] };
    g.writes.push(c);
    groups.set(c.path, g);
  }
  return [...groups.values()];
}

function FileDiff({ threadId, path }: { threadId: string; path: string }) {
  const [diff, setDiff] = useState<CheckpointDiff | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    call('checkpoints.diff', { threadId, path })
      .then((d) => live && setDiff(d[0] ?? null))
      .catch(() => live && setDiff(null));
    return () => {
      live = false;
    };
  }, [threadId, path]);
  if (diff === undefined) return <p className="muted">Loading…</p>;
  if (diff === null) return <p className="muted">Every change to this file was reverted.</p>;
  return (
    <Suspense fallback={<p className="muted">Loading diff…</p>}>
      <MonacoDiff before={diff.before ?? ''} after={diff.after ?? ''} path={path} height={280} />
    </Suspense>
  );
}

function FileRow({
  threadId,
  group,
  revision,
}: {
  threadId: string;
  group: FileGroup;
  revision: number;
}) {
  const [open, setOpen] = useState(false);
  const pending = group.writes.filter((w) => !w.reverted);
  const created = group.writes[0]?.change === 'created';
  const deleted = !created && group.writes.at(-1)?.change === 'deleted';
  return (
    <li className="change-file" data-testid="change-file" data-path={group.path}>
      <div className="change-head">
        <button
          type="button"
          className="link-button change-path"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          data-testid="change-toggle"
        >
          <code>{group.path}</code>
        </button>
        <span className="muted change-meta">
          {created ? 'created' : deleted ? 'deleted' : 'modified'} · {group.writes.length} write
          {group.writes.length > 1 ? 's' : ''}
          {pending.length === 0 ? ' · reverted' : ''}
        </span>
        {pending.length > 0 && (
          <RevertButton
            key={revision}
            threadId={threadId}
            target={{ path: group.path }}
            label="Revert file"
            title="Restore the file as it was before the agent's first change"
            testId="revert-file"
          />
        )}
      </div>
      {open && (
        <div className="change-body">
          <FileDiff key={revision} threadId={threadId} path={group.path} />
          <ol className="change-writes">
            {group.writes.map((w) => (
              <li key={w.id} data-testid="change-write">
                <span className="muted">{new Date(w.created_at).toLocaleTimeString()}</span>{' '}
                <code title={w.tool_call_id}>{w.tool_call_id.slice(-8)}</code>
                {w.reverted ? (
                  <span className="muted"> reverted</span>
                ) : w.revertable ? (
                  <RevertButton
                    key={revision}
                    threadId={threadId}
                    target={{ toolCallId: w.tool_call_id }}
                    testId="revert-write"
                  />
                ) : (
                  <span className="muted"> too large to revert</span>
                )}
              </li>
            ))}
          </ol>
        </div>
      )}
    </li>
  );
}

/** The Changes view: every file the agent changed in the thread, its diff and revert buttons. */
export function ChangesPanel() {
  const threadId = useWorkbenchStore((s) => s.activeThreadId);
  // Re-read when the thread grows or stops (new writes) and after any revert.
  const size = useWorkbenchStore((s) =>
    s.activeThreadId ? (s.chat.threads[s.activeThreadId]?.messages.length ?? 0) : 0,
  );
  const [list, setList] = useState<CheckpointView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [revision, setRevision] = useState(0);
  const load = useCallback(async () => {
    if (!threadId) return setList([]);
    try {
      setList(await call('checkpoints.list', { threadId }));
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  }, [threadId]);
  useEffect(() => void load(), [load, size]);
  useEffect(
    () =>
      onCheckpointsChanged(() => {
        setRevision((r) => r + 1);
        void load();
      }),
    [load],
  );
  const groups = useMemo(() => groupByFile(list), [list]);
  const lastRun = list.filter((c) => !c.reverted).at(-1)?.run_id;
  if (!threadId)
    return <p className="muted panel-pad">Open a thread to see what the agent changed.</p>;
  return (
    <section className="changes-panel" aria-label="Changes" data-testid="changes-panel">
      <div className="changes-toolbar">
        <span>
          {groups.length} file{groups.length === 1 ? '' : 's'} changed in this thread
        </span>
        {lastRun && (
          <RevertButton
            key={`${revision}-${lastRun}`}
            threadId={threadId}
            target={{ runId: lastRun }}
            label="Revert last run"
            title="Restore every file the last run changed"
            testId="revert-run"
          />
        )}
      </div>
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      {groups.length === 0 ? (
        <p className="muted panel-pad">The agent has not written any file in this thread yet.</p>
      ) : (
        <ul className="change-list">
          {groups.map((g) => (
            <FileRow key={g.path} threadId={threadId} group={g} revision={revision} />
          ))}
        </ul>
      )}
    </section>
  );
}

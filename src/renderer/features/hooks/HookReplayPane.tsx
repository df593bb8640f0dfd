import { useWorkbenchStore } from '../../stores/store.ts';

/** What the replayed hook would have done to the recorded tool calls of the recent threads. */
export function HookReplayPane() {
  const replay = useWorkbenchStore((s) => s.hookReplay);
  if (!replay) return null;
  return (
    <div className="hook-replay" data-testid="hook-replay">
      <p className="small muted">
        Dry run over the recorded tool calls of the recent threads: the hook's answers are only
        read, never applied.
      </p>
      {replay.running && <p className="small">Replaying…</p>}
      {replay.error && <p className="small error-text">{replay.error}</p>}
      {replay.rows && replay.rows.length === 0 && (
        <p className="small muted">No recorded tool call this hook applies to.</p>
      )}
      {replay.rows && replay.rows.length > 0 && (
        <table className="small">
          <thead>
            <tr>
              <th>Verdict</th>
              <th>Tool</th>
              <th>Arguments</th>
              <th>Reason</th>
            </tr>
          </thead>
          <tbody>
            {replay.rows.map((r) => (
              <tr
                key={`${r.thread_id}/${r.tool_call_id}`}
                data-testid="hook-replay-row"
                data-verdict={r.verdict}
              >
                <td className={r.verdict === 'allow' ? '' : 'warn-text'}>{r.verdict}</td>
                <td className="mono">{r.tool}</td>
                <td className="mono">{JSON.stringify(r.args).slice(0, 120)}</td>
                <td>{r.reason ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

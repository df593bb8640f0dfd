import { useEffect } from 'react';
import { useWorkbenchStore } from '../../stores/store.ts';

/** The exact system message of the last model request (memory + skills catalog + system prompt). */
export function EffectiveContext() {
  const ctx = useWorkbenchStore((s) => s.memoryEffective);
  const load = useWorkbenchStore((s) => s.loadEffective);
  const thread = useWorkbenchStore((s) => s.activeThreadId);
  useEffect(() => void load(), [load, thread]);
  if (!ctx) return <p className="muted">Loading…</p>;
  return (
    <div className="effective" data-testid="memory-effective">
      <div className="panel-toolbar">
        <span className="muted">
          Memory now: ≈ {ctx.memory.tokens.toLocaleString()} tokens from{' '}
          {ctx.memory.sources.filter((s) => s.exists).length} file(s)
        </span>
        <span className="spacer" />
        <button type="button" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      <ul className="source-list">
        {ctx.memory.sources.map((s) => (
          <li key={s.path} className={s.exists ? '' : 'muted'}>
            <span className="badge">{s.scope}</span> <span className="mono">{s.path}</span>
            {s.refused
              ? ` · ${s.refused}`
              : s.exists
              ? ` · ${s.bytes.toLocaleString()} bytes${s.truncated ? ' (truncated)' : ''}`
              : ' · missing'}
          </li>
        ))}
      </ul>
      {ctx.system === null ? (
        <p className="muted" data-testid="effective-empty">
          {thread
            ? 'No model request on this thread yet.'
            : 'Open a thread to see what its last model request carried.'}
        </p>
      ) : (
        <>
          <p className="hint">
            System message of the last request{ctx.model ? ` to ${ctx.model}` : ''}
            {ctx.at ? `, ${new Date(ctx.at).toLocaleTimeString()}` : ''} · ≈{' '}
            {ctx.estimatedTokens?.toLocaleString()} tokens
          </p>
          <pre className="effective-text" data-testid="effective-system">
            {ctx.system}
          </pre>
        </>
      )}
    </div>
  );
}

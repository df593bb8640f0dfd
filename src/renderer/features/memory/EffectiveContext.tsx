import { useEffect } from 'react';
import type { MemoryImportView } from '../../../shared/ipc/contract.ts';
import { useWorkbenchStore } from '../../stores/store.ts';

/** What one memory file contributed: its size, or why it was not read. */
function fileNote(f: {
  exists: boolean;
  bytes: number;
  truncated: boolean;
  refused?: string;
}): string {
  if (f.refused) return ` · ${f.refused}`;
  if (!f.exists) return ' · missing';
  return ` · ${f.bytes.toLocaleString()} bytes${f.truncated ? ' (truncated)' : ''}`;
}

/** The files a memory file imports with `@path`, nested as they import each other. */
function ImportTree({ imports }: { imports?: MemoryImportView[] }) {
  if (!imports?.length) return null;
  return (
    <ul className="source-list import-tree" data-testid="memory-imports">
      {imports.map((i) => (
        <li key={i.path} className={i.exists && !i.refused ? '' : 'muted'} title={i.path}>
          <span className="mono">@{i.ref}</span>
          {fileNote(i)}
          <ImportTree imports={i.imports} />
        </li>
      ))}
    </ul>
  );
}

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
            {fileNote(s)}
            {s.paths && (
              <span className="muted" data-testid="memory-rule-paths">
                {` · for ${s.paths.join(', ')}${s.waiting ? ': waits until the agent touches a matching file' : ''}`}
              </span>
            )}
            <ImportTree imports={s.imports} />
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

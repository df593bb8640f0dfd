import { useEffect, useState } from 'react';
import type { ContextUsage } from '../../../shared/ipc/contract.ts';
import { call } from '../../ipc/client.ts';

const fmt = (n: number) => (n >= 1000 ? `${Math.round(n / 100) / 10}k` : String(n));

/**
 * How full the thread's context is (estimated tokens of the model's window, docs/architecture.md)
 * with "Compact now". Re-read when the thread changes size or a run ends.
 */
export function ContextMeter({
  threadId,
  revision,
  onCompact,
}: {
  threadId: string;
  /** Changes whenever the thread may have grown. */
  revision: string;
  onCompact(): Promise<void>;
}) {
  const [usage, setUsage] = useState<ContextUsage | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    call('threads.context', { threadId })
      .then((u) => live && setUsage(u))
      .catch(() => live && setUsage(null));
    return () => {
      live = false;
    };
  }, [threadId, revision]);
  if (!usage || usage.window <= 0) return null;
  const pct = Math.min(100, Math.round((usage.used / usage.window) * 100));
  return (
    <div
      className="context-meter"
      data-testid="context-meter"
      title="Estimated tokens of the model's context window"
    >
      <span className="context-bar" aria-hidden>
        <span className={`context-fill${pct >= 80 ? ' high' : ''}`} style={{ width: `${pct}%` }} />
      </span>
      <span data-testid="context-used">
        {fmt(usage.used)} / {fmt(usage.window)} tokens ({pct}%)
      </span>
      <button
        type="button"
        className="link-button"
        disabled={busy}
        data-testid="compact-now"
        onClick={() => {
          setBusy(true);
          void onCompact().finally(() => {
            setBusy(false);
            void call('threads.context', { threadId }).then(setUsage, () => undefined);
          });
        }}
      >
        {busy ? 'Compacting…' : 'Compact now'}
      </button>
    </div>
  );
}

import type { RunningHook } from '../../stores/chat-types.ts';

/**
 * The hooks running now, above the composer: a hook's status message (Claude `statusMessage`) while
 * it runs, or "running" for a hook that has taken over a second — what the agent is waiting on.
 */
export function HookStatus({ hooks }: { hooks: readonly RunningHook[] }) {
  if (hooks.length === 0) return null;
  return (
    <div className="hook-status" role="status" data-testid="hook-status">
      {hooks.map((h) => (
        <div key={h.call} className="hook-status-line">
          <span className="spinner" aria-hidden="true" />
          {h.message ?? `Running hook ${h.hook}`}
          <span className="small muted">
            {' '}
            ({h.event}
            {h.message ? ` · ${h.hook}` : ''})
          </span>
        </div>
      ))}
    </div>
  );
}

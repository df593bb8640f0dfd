import type { HookHealth } from '../../../shared/types/index.ts';

/** A hook's last runs as dots, newest first: ok, error, timeout (labels for screen readers and tests). */
export function HookHealthDots({ health }: { health?: HookHealth }) {
  if (!health?.last.length) return null;
  const failing = health.last[0] !== 'ok';
  return (
    <span
      className={`hook-health${failing ? ' failing' : ''}`}
      title={health.last_error ? `last error: ${health.last_error}` : 'last runs: all ok'}
      data-testid="hook-health"
      data-last={health.last.join(',')}
    >
      {health.last.map((o, i) => (
        <span key={i} className={`dot dot-${o}`} aria-label={o} />
      ))}
      {failing && <span className="small error-text">{health.last[0]}</span>}
    </span>
  );
}

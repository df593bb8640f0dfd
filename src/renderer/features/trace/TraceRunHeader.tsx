/** A run's header row: when, how long, outcome, the time-accounting strip and the axis ticks. */
import { memo, useMemo } from 'react';
import { accountRun, type TimeAccounting } from './trace-accounting.ts';
import { isProblem } from './trace-filter.ts';
import { runEnd, type RunLayout } from './trace-layout.ts';
import { formatDuration, type ViewWindow } from './trace-view.ts';

const PARTS: Array<{ key: keyof Omit<TimeAccounting, 'total'>; label: string }> = [
  { key: 'model', label: 'model' },
  { key: 'tools', label: 'tools' },
  { key: 'hooks', label: 'hooks' },
  { key: 'approval', label: 'waiting for you' },
  { key: 'other', label: 'other' },
];

interface Props {
  run: RunLayout;
  shown: number;
  view: ViewWindow;
  now: number;
}

function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString([], {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** One run's header. */
export const TraceRunHeader = memo(function TraceRunHeader({ run, shown, view, now }: Props) {
  // While open, recompute four times a second rather than every frame.
  const tick = run.open ? Math.floor(now / 250) * 250 : 0;
  const acc = useMemo(
    () =>
      accountRun(
        run.rows.map((r) => r.span),
        tick,
      ),
    [run, tick],
  );
  const end = runEnd(run, now);
  const dur = end - run.start;
  const failed = run.root ? isProblem(run.root) : false;
  const tokIn = run.root?.attributes['gen_ai.usage.input_tokens'];
  const tokOut = run.root?.attributes['gen_ai.usage.output_tokens'];
  const stop = run.root?.attributes['workbench.stop_reason'];
  const ticks = [0, 0.25, 0.5, 0.75].map((f) => ({
    f,
    t: (view.from + f * (view.to - view.from)) * dur,
  }));
  return (
    <div
      className={`trace-run${failed ? ' error' : ''}`}
      data-testid="trace-run"
      data-run-id={run.runId}
      data-open={run.open}
    >
      <div className="trace-run-title">
        <strong>{`Run ${clock(run.start)}`}</strong>
        <span className="muted">{formatDuration(dur)}</span>
        <span className="muted">{`${shown === run.rows.length ? run.rows.length : `${shown}/${run.rows.length}`} spans`}</span>
        {typeof tokIn === 'number' && typeof tokOut === 'number' && (
          <span
            className="muted"
            title="tokens in / out for the run"
          >{`${tokIn.toLocaleString()}→${tokOut.toLocaleString()} tok`}</span>
        )}
        {run.open ? (
          <span className="trace-badge live">running</span>
        ) : typeof stop === 'string' && stop !== 'completed' ? (
          <span className={`trace-badge${failed ? ' err' : ''}`}>{stop}</span>
        ) : null}
      </div>
      <div
        className="trace-accounting"
        data-testid="trace-accounting"
        role="img"
        aria-label={PARTS.map((p) => `${p.label} ${formatDuration(acc[p.key])}`).join(', ')}
      >
        {PARTS.map((p) =>
          acc[p.key] > 0 ? (
            <span
              key={p.key}
              className={`acc-${p.key}`}
              style={{ flexGrow: acc[p.key] }}
              title={`${p.label}: ${formatDuration(acc[p.key])} (${Math.round((acc[p.key] / (acc.total || 1)) * 100)}%)`}
            />
          ) : null,
        )}
      </div>
      <div className="trace-acc-legend">
        {PARTS.filter((p) => acc[p.key] > 0).map((p) => (
          <span key={p.key}>
            <i className={`acc-${p.key}`} />
            {`${p.label} ${formatDuration(acc[p.key])}`}
          </span>
        ))}
      </div>
      <div className="trace-axis">
        <span className="trace-axis-gutter" />
        <span className="trace-axis-track">
          {ticks.map((k) => (
            <span key={k.f} style={{ left: `${k.f * 100}%` }}>
              {k.t === 0 ? '0' : `+${formatDuration(k.t)}`}
            </span>
          ))}
        </span>
      </div>
    </div>
  );
});

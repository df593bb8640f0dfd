/** One span in the waterfall: the tree label on the left, the bar on the shared time axis on the right. */
import { memo } from 'react';
import { hookName, isProblem, toolName } from './trace-filter.ts';
import { isSlow } from './trace-stats.ts';
import { runEnd, type LayoutRow, type RunLayout } from './trace-layout.ts';
import { barGeometry, formatDuration, type ViewWindow } from './trace-view.ts';

interface Props {
  row: LayoutRow;
  run: RunLayout;
  matched: boolean;
  view: ViewWindow;
  now: number;
  selected: boolean;
  /** p90 duration per operation (trace-stats), for slow/stuck badges. */
  p90: ReadonlyMap<string, number>;
  onSelect(spanId: string): void;
}

/** The label shown in the tree for a span. */
export function spanLabel(row: LayoutRow): string {
  const s = row.span;
  if (s.kind === 'tool') return toolName(s) ?? s.name;
  if (s.kind === 'hook')
    return `${hookName(s) ?? 'hook'} (${String(s.attributes['workbench.hook.event'] ?? 'hook')})`;
  // A subagent's run (nested under its task span) is named after its agent (docs/agents.md).
  if (s.kind === 'agent')
    return row.parent >= 0 ? `agent ${String(s.attributes['gen_ai.agent.name'] ?? 'run')}` : 'run';
  return s.name;
}

/** One span row. */
export const TraceSpanRow = memo(function TraceSpanRow({
  row,
  run,
  matched,
  view,
  now,
  selected,
  p90,
  onSelect,
}: Props) {
  const s = row.span;
  const open = s.end_ms === undefined;
  const end = s.end_ms ?? Math.max(now, s.start_ms);
  const runStart = run.start;
  const dur = runEnd(run, now) - runStart;
  const g = barGeometry(s.start_ms, end, runStart, dur, view);
  // Bars wholly outside the zoom window keep no label (it would sit at an edge, misleading).
  const inView = g.left + g.width >= 0 && g.left <= 100;
  const problem = isProblem(s);
  const slow = isSlow(s, p90, now);
  const timedOut =
    s.attributes['workbench.hook.timed_out'] === true ||
    s.attributes['workbench.tool.timed_out'] === true;
  const firstChunk = s.kind === 'llm' ? s.events.find((e) => e.name === 'first_chunk') : undefined;
  const ttft = firstChunk
    ? barGeometry(firstChunk.time_ms, firstChunk.time_ms, runStart, dur, view).left
    : undefined;
  const label = spanLabel(row);
  const cls = [
    'trace-row',
    `kind-${s.kind}`,
    problem ? 'error' : '',
    matched ? '' : 'context',
    selected ? 'selected' : '',
    open ? 'open' : '',
    s.incomplete ? 'incomplete' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      className={cls}
      onClick={() => onSelect(s.span_id)}
      role="button"
      aria-pressed={selected}
      data-testid="trace-row"
      data-kind={s.kind}
      data-span-id={s.span_id}
      data-lane={row.lane}
      title={`${s.name} — ${open ? 'running' : formatDuration(end - s.start_ms)}${s.status.message ? ` — ${s.status.message}` : ''}`}
    >
      <span className="trace-label" style={{ paddingLeft: 4 + Math.min(row.depth, 8) * 10 }}>
        <i className={`trace-dot kind-${s.kind}`} />
        <span className="trace-name">{label}</span>
        {row.lane > 0 && (
          <span
            className="trace-lane"
            title={`parallel: lane ${row.lane + 1}`}
          >{`∥${row.lane + 1}`}</span>
        )}
        {timedOut ? (
          <span className="trace-badge err">timeout</span>
        ) : slow ? (
          <span
            className={`trace-badge ${open ? 'err' : 'warn'}`}
            title="longer than 90% of this operation's runs in this thread"
          >
            {open ? 'stuck' : 'slow'}
          </span>
        ) : problem ? (
          <span className="trace-badge err" aria-label="error">
            !
          </span>
        ) : null}
      </span>
      <span className="trace-track">
        <span
          className={`trace-bar kind-${s.kind}`}
          style={{ left: `${g.left}%`, width: `max(2px, ${g.width}%)` }}
        >
          {ttft !== undefined && (
            <i
              className="trace-ttft"
              style={{ left: `${((ttft - g.left) / (g.width || 1)) * 100}%` }}
              title="first chunk"
            />
          )}
        </span>
        {inView && (
          <span
            className="trace-dur"
            style={{
              left: `min(calc(${Math.max(0, g.left + g.width)}% + 3px), calc(100% - 44px))`,
            }}
          >
            {open ? '…' : formatDuration(end - s.start_ms)}
          </span>
        )}
      </span>
    </div>
  );
});

import { useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { HookRunRecord } from '../../../shared/types/index.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { runFailed, runOutcome } from './hook-state.ts';

const ROW = 30;

/** Recent hook runs, virtualized (thousands of runs keep a bounded DOM); a run opens its span or its details. */
export function HookRunsList({ runs }: { runs: HookRunRecord[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const openSpan = useWorkbenchStore((s) => s.openHookRunSpan);
  const [detail, setDetail] = useState<HookRunRecord | null>(null);
  const v = useVirtualizer({
    count: runs.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 8,
  });
  if (runs.length === 0)
    return (
      <p className="muted" data-testid="hook-runs-empty">
        No hook runs yet.
      </p>
    );
  return (
    <>
      <div className="runs-scroll" ref={scroller} data-testid="hook-runs">
        <div style={{ height: v.getTotalSize(), position: 'relative' }}>
          {v.getVirtualItems().map((item) => {
            const r = runs[item.index]!;
            return (
              <button
                type="button"
                key={r.id}
                className={`run-row${runFailed(r) ? ' failed' : ''}`}
                style={{ transform: `translateY(${item.start}px)`, height: ROW }}
                onClick={() =>
                  r.thread_id && r.span_id
                    ? void openSpan(r)
                    : setDetail(detail?.id === r.id ? null : r)
                }
                title={r.thread_id && r.span_id ? 'Show this run in the trace' : 'Show run details'}
                data-testid="hook-run"
              >
                <span className="when">{new Date(r.started_at).toLocaleTimeString()}</span>
                <span className="name">{r.hook_name}</span>
                <span className="mono event">{r.event}</span>
                <span className={`outcome${runFailed(r) ? ' error-text' : ''}`}>
                  {runOutcome(r)}
                </span>
                <span className="dur">{r.duration_ms} ms</span>
                <span className="decision">{r.decision}</span>
              </button>
            );
          })}
        </div>
      </div>
      {detail && (
        <div className="card run-detail" data-testid="hook-run-detail">
          <div className="panel-toolbar">
            <strong>{detail.hook_name}</strong> <span className="badge">{detail.event}</span>
            <span className="spacer" />
            <button type="button" onClick={() => setDetail(null)}>
              Close
            </button>
          </div>
          <p className="small">
            {runOutcome(detail)} · {detail.duration_ms} ms · read as {detail.decision}
            {detail.reason ? ` — ${detail.reason}` : ''}
            {detail.error ? ` — ${detail.error}` : ''}
          </p>
          <div className="field-label">payload</div>
          <pre>{detail.payload}</pre>
          <div className="field-label">stdout</div>
          <pre>{detail.stdout || '(empty)'}</pre>
          <div className="field-label">stderr</div>
          <pre>{detail.stderr || '(empty)'}</pre>
        </div>
      )}
    </>
  );
}

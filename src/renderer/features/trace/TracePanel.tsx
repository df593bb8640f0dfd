/**
 * The Trace tab: the active thread's runs as waterfalls on a zoomable time axis, filters and search,
 * export/import, and a detail drawer for the selected span. Layout is computed once per span-list
 * change; the animation clock only moves bars of open spans.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { SpanRecord } from '../../../shared/types/index.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { filterChoices, NO_FILTER, type TraceFilter } from './trace-filter.ts';
import { p90ByOperation } from './trace-stats.ts';
import { layoutRuns, type RunLayout } from './trace-layout.ts';
import { FULL_VIEW, type ViewWindow } from './trace-view.ts';
import { TraceToolbar } from './TraceToolbar.tsx';
import { TraceTimeline } from './TraceTimeline.tsx';
import { SpanDrawer } from './SpanDrawer.tsx';
import { LIMITS, useLayout } from '../layout/layout-store.ts';
import { Splitter } from '../layout/Splitter.tsx';
import type { CSSProperties } from 'react';
import './trace.css';

const NO_SPANS: SpanRecord[] = [];

/** The trace timeline panel for the active thread. */
export function TracePanel() {
  const threadId = useWorkbenchStore((s) => s.activeThreadId);
  const spans =
    useWorkbenchStore((s) => (threadId ? s.trace.threads[threadId]?.spans : undefined)) ?? NO_SPANS;
  const loaded =
    useWorkbenchStore((s) => (threadId ? s.trace.threads[threadId]?.loaded : false)) ?? false;
  const loadTrace = useWorkbenchStore((s) => s.loadTrace);
  const selected = useWorkbenchStore((s) => s.traceSelected);
  const selectSpan = useWorkbenchStore((s) => s.selectSpan);
  const [filter, setFilter] = useState<TraceFilter>(NO_FILTER);
  const [view, setView] = useState<ViewWindow>(FULL_VIEW);
  const treeWidth = useLayout((s) => s.traceTreeWidth);
  const setTreeWidth = useLayout((s) => s.setTraceTreeWidth);

  const running = useWorkbenchStore((s) =>
    threadId ? Boolean(s.chat.threads[threadId]?.running) : false,
  );
  const connected = useWorkbenchStore((s) => s.connection === 'open' || s.connection === 'bridge');

  // Another thread clears the selection; mounting does not, so a link that selected a span and
  // then opened this panel ("show this run in the trace") keeps it.
  const shownThread = useRef(threadId);
  useEffect(() => {
    if (shownThread.current === threadId) return;
    shownThread.current = threadId;
    selectSpan(null);
    setView(FULL_VIEW);
  }, [threadId, selectSpan]);

  // Load on open, and re-read when a run starts or ends and after a reconnect, so span events
  // missed in a gap never leave a stale (forever open) bar.
  useEffect(() => {
    if (threadId && connected) void loadTrace(threadId);
  }, [threadId, running, connected, loadTrace]);

  // Runs whose spans did not change keep their layout object (and their rows stay memoized).
  const previous = useRef<RunLayout[]>([]);
  const runs = useMemo(() => (previous.current = layoutRuns(spans, previous.current)), [spans]);
  const choices = useMemo(() => filterChoices(spans), [spans]);
  const p90 = useMemo(() => p90ByOperation(spans), [spans]);
  const selectedSpan = useMemo(
    () => (selected ? spans.find((s) => s.span_id === selected) : undefined),
    [spans, selected],
  );
  const selectedRun = useMemo(
    // A subagent's span sits in the run it nests under, whose id is not its own run_id.
    () => (selectedSpan ? runs.find((r) => r.rows.some((row) => row.span.span_id === selectedSpan.span_id)) : undefined),
    [runs, selectedSpan],
  );

  return (
    <div
      className="trace-panel"
      data-testid="trace-panel"
      style={{ '--trace-tree-w': `${treeWidth}px` } as CSSProperties}
    >
      <TraceToolbar
        threadId={threadId}
        filter={filter}
        onFilter={setFilter}
        choices={choices}
        view={view}
        onView={setView}
        spanCount={spans.length}
      />
      {!threadId ? (
        <p className="muted trace-empty" data-testid="trace-empty">
          Open or start a thread: every run of the agent shows up here as a timeline of its model
          calls, tool calls and hook runs.
        </p>
      ) : runs.length === 0 ? (
        <p className="muted trace-empty" data-testid="trace-empty">
          {loaded
            ? 'No runs yet. Send a message: the run appears here live — model calls, tool calls (parallel ones on their own lanes) and hook runs, growing on a shared time axis while they run.'
            : 'Loading the trace…'}
        </p>
      ) : (
        <div className="trace-columns">
          <TraceTimeline
            runs={runs}
            filter={filter}
            view={view}
            onView={setView}
            selected={selected}
            onSelect={selectSpan}
            p90={p90}
          />
          <Splitter
            label="Resize span names"
            value={treeWidth}
            {...LIMITS.traceTree}
            direction={1}
            onChange={setTreeWidth}
            testId="splitter-trace-tree"
          />
        </div>
      )}
      {selectedSpan && (
        <SpanDrawer
          span={selectedSpan}
          run={selectedRun}
          onClose={() => selectSpan(null)}
          onSelect={selectSpan}
        />
      )}
    </div>
  );
}

/**
 * The virtualized waterfall: run headers and span rows in one scroller (only the rows in view are in
 * the DOM). Wheel over the bars zooms around the cursor, drag pans; keys + − 0 ← → ↑ ↓ Esc.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { isEmptyFilter, type TraceFilter } from './trace-filter.ts';
import type { RunLayout } from './trace-layout.ts';
import { FULL_VIEW, panBy, zoomAt, type ViewWindow } from './trace-view.ts';
import { ROW_HEIGHT, RUN_HEIGHT, timelineItems } from './timeline-items.ts';
import { useNow } from './use-now.ts';
import { TraceRunHeader } from './TraceRunHeader.tsx';
import { TraceSpanRow } from './TraceSpanRow.tsx';

interface Props {
  runs: RunLayout[];
  filter: TraceFilter;
  view: ViewWindow;
  onView(v: ViewWindow): void;
  selected: string | null;
  onSelect(spanId: string | null): void;
  p90: ReadonlyMap<string, number>;
}

/** The runs' waterfalls. */
export function TraceTimeline({ runs, filter, view, onView, selected, onSelect, p90 }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const items = useMemo(
    () => timelineItems(runs, filter, !isEmptyFilter(filter), p90),
    [runs, filter, p90],
  );
  const now = useNow(runs.some((r) => r.open));
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (items[i]!.type === 'run' ? RUN_HEIGHT : ROW_HEIGHT),
    overscan: 8,
  });
  const viewRef = useRef(view);
  viewRef.current = view;
  const drag = useRef<{ x: number; width: number; view: ViewWindow; moved: boolean } | null>(null);
  const suppressClick = useRef(false);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // A native, non-passive listener: React's onWheel cannot preventDefault the page scroll.
    const onWheel = (e: WheelEvent) => {
      const track = (e.target as Element).closest('.trace-track');
      if (!track || e.shiftKey) return;
      e.preventDefault();
      const rect = track.getBoundingClientRect();
      const anchor = Math.min(1, Math.max(0, (e.clientX - rect.left) / rect.width));
      onView(zoomAt(viewRef.current, Math.exp(e.deltaY * 0.002), anchor));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [onView]);

  const spanIds = useMemo(
    () => items.flatMap((it) => (it.type === 'span' ? [it.row.span.span_id] : [])),
    [items],
  );
  // A selection made elsewhere (a chat card, a hook run) scrolls its span into view.
  useEffect(() => {
    if (!selected) return;
    const index = items.findIndex((it) => it.type === 'span' && it.row.span.span_id === selected);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'center' });
    // Only a new selection scrolls, not every new span of a live run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected, items.length > 0]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    const v = viewRef.current;
    if (e.key === '+' || e.key === '=') onView(zoomAt(v, 0.5, 0.5));
    else if (e.key === '-' || e.key === '_') onView(zoomAt(v, 2, 0.5));
    else if (e.key === '0') onView(FULL_VIEW);
    else if (e.key === 'ArrowLeft') onView(panBy(v, -0.1));
    else if (e.key === 'ArrowRight') onView(panBy(v, 0.1));
    else if (e.key === 'Escape') onSelect(null);
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const at = selected ? spanIds.indexOf(selected) : -1;
      const next = Math.min(spanIds.length - 1, Math.max(0, at + (e.key === 'ArrowDown' ? 1 : -1)));
      const id = spanIds[next];
      if (id) {
        onSelect(id);
        virtualizer.scrollToIndex(
          items.findIndex((it) => it.type === 'span' && it.row.span.span_id === id),
          { align: 'auto' },
        );
      }
    } else return;
    e.preventDefault();
  };

  const onPointerDown = (e: React.PointerEvent) => {
    const track = (e.target as Element).closest('.trace-track');
    if (!track || e.button !== 0) return;
    drag.current = {
      x: e.clientX,
      width: track.getBoundingClientRect().width,
      view: viewRef.current,
      moved: false,
    };
  };
  const onPointerMove = (e: React.PointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.x;
    if (!d.moved && Math.abs(dx) < 4) return;
    if (!d.moved) scroller.current?.setPointerCapture(e.pointerId);
    d.moved = true;
    onView(panBy(d.view, -dx / d.width));
  };
  const onPointerUp = () => {
    suppressClick.current = Boolean(drag.current?.moved);
    drag.current = null;
  };
  const select = (id: string) => {
    if (suppressClick.current) {
      suppressClick.current = false;
      return;
    }
    onSelect(id === selected ? null : id);
  };

  if (items.length === 0) {
    return (
      <p className="muted trace-empty" data-testid="trace-no-match">
        No span matches the filter.
      </p>
    );
  }
  return (
    <div
      ref={scroller}
      className={`trace-scroller${drag.current?.moved ? ' dragging' : ''}`}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      aria-label="Trace timeline"
      data-testid="trace-timeline"
      data-view={`${view.from.toFixed(4)}-${view.to.toFixed(4)}`}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((vi) => {
          const item = items[vi.index]!;
          return (
            <div
              key={vi.key}
              className="trace-item"
              style={{ transform: `translateY(${vi.start}px)`, height: vi.size }}
            >
              {item.type === 'run' ? (
                <TraceRunHeader
                  run={item.run}
                  shown={item.shown}
                  view={view}
                  now={item.run.open ? now : 0}
                />
              ) : (
                <TraceSpanRow
                  row={item.row}
                  run={item.run}
                  matched={item.matched}
                  view={view}
                  now={item.run.open ? now : 0}
                  selected={item.row.span.span_id === selected}
                  p90={p90}
                  onSelect={select}
                />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

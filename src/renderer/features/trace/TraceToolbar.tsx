/** Filters, search, zoom buttons, export and import above the timeline. */
import { useRef } from 'react';
import type { SpanKind } from '../../../shared/types/index.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import type { TraceFilter } from './trace-filter.ts';
import { FULL_VIEW, zoomAt, type ViewWindow } from './trace-view.ts';
import { saveFile } from './save-file.ts';
import { AppWindow, Maximize2, Minimize2 } from 'lucide-react';
import { call } from '../../ipc/client.ts';
import { useLayout } from '../layout/layout-store.ts';

const KINDS: Array<{ kind: SpanKind; label: string }> = [
  { kind: 'agent', label: 'Run' },
  { kind: 'llm', label: 'Model' },
  { kind: 'tool', label: 'Tool' },
  { kind: 'hook', label: 'Hook' },
];

interface Props {
  threadId: string | null;
  filter: TraceFilter;
  onFilter(f: TraceFilter): void;
  choices: { tools: string[]; hooks: string[] };
  view: ViewWindow;
  onView(v: ViewWindow): void;
  spanCount: number;
}

/** The timeline's toolbar. */
export function TraceToolbar({
  threadId,
  filter,
  onFilter,
  choices,
  view,
  onView,
  spanCount,
}: Props) {
  const exportTrace = useWorkbenchStore((s) => s.exportTrace);
  const importTrace = useWorkbenchStore((s) => s.importTrace);
  const fileInput = useRef<HTMLInputElement>(null);
  const full = useLayout((s) => s.traceFull);
  const setFull = useLayout((s) => s.setTraceFull);
  const canWindow = useWorkbenchStore((s) => Boolean(s.app?.canOpenWindows));
  const toggleKind = (kind: SpanKind) =>
    onFilter({
      ...filter,
      kinds: filter.kinds.includes(kind)
        ? filter.kinds.filter((k) => k !== kind)
        : [...filter.kinds, kind],
    });
  const doExport = async (format: 'otlp' | 'chrome') => {
    if (!threadId) return;
    const file = await exportTrace(threadId, format);
    if (file) saveFile(file.filename, file.content);
  };
  const onFile = async (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    await importTrace(await file.text(), file.name);
    if (fileInput.current) fileInput.current.value = '';
  };
  return (
    <div className="trace-toolbar">
      <div className="trace-toolbar-row">
        <input
          type="search"
          className="trace-search"
          placeholder="Search spans…"
          value={filter.text}
          onChange={(e) => onFilter({ ...filter, text: e.target.value })}
          aria-label="Search spans"
          data-testid="trace-search"
        />
        <select
          value={filter.tool}
          onChange={(e) => onFilter({ ...filter, tool: e.target.value })}
          aria-label="Tool"
          data-testid="trace-filter-tool"
          disabled={choices.tools.length === 0}
        >
          <option value="">any tool</option>
          {choices.tools.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
        <select
          value={filter.hook}
          onChange={(e) => onFilter({ ...filter, hook: e.target.value })}
          aria-label="Hook"
          data-testid="trace-filter-hook"
          disabled={choices.hooks.length === 0}
        >
          <option value="">any hook</option>
          {choices.hooks.map((h) => (
            <option key={h}>{h}</option>
          ))}
        </select>
      </div>
      <div className="trace-toolbar-row">
        <button
          type="button"
          className={`trace-pill${filter.errorsOnly ? ' on' : ''}`}
          aria-pressed={filter.errorsOnly}
          onClick={() => onFilter({ ...filter, errorsOnly: !filter.errorsOnly })}
          data-testid="trace-filter-errors"
        >
          Errors
        </button>
        <button
          type="button"
          className={`trace-pill${filter.slowOnly ? ' on' : ''}`}
          aria-pressed={filter.slowOnly}
          onClick={() => onFilter({ ...filter, slowOnly: !filter.slowOnly })}
          title="Spans slower than 90% of the same operation in this thread"
          data-testid="trace-filter-slow"
        >
          Slow
        </button>
        {KINDS.map((k) => (
          <button
            key={k.kind}
            type="button"
            className={`trace-pill kind-${k.kind}${filter.kinds.includes(k.kind) ? ' on' : ''}`}
            aria-pressed={filter.kinds.includes(k.kind)}
            onClick={() => toggleKind(k.kind)}
            data-testid={`trace-kind-${k.kind}`}
          >
            {k.label}
          </button>
        ))}
      </div>
      <div className="trace-toolbar-row">
        <span
          className="trace-zoom"
          title="Wheel over the bars zooms around the cursor, drag pans; keys + − 0 and ← →"
        >
          <button
            type="button"
            onClick={() => onView(zoomAt(view, 0.5, 0.5))}
            aria-label="Zoom in"
            data-testid="trace-zoom-in"
          >
            +
          </button>
          <button type="button" onClick={() => onView(zoomAt(view, 2, 0.5))} aria-label="Zoom out">
            −
          </button>
          <button
            type="button"
            onClick={() => onView(FULL_VIEW)}
            aria-label={`${Math.round(1 / (view.to - view.from))}× zoom, reset`}
            title="Reset zoom"
            data-testid="trace-zoom-level"
            disabled={view.from === 0 && view.to === 1}
          >
            {`${Math.round(1 / (view.to - view.from))}×`}
          </button>
        </span>
        <span className="muted trace-count" data-testid="trace-count">{`${spanCount} spans`}</span>
        <span className="trace-spacer" />
        <button
          type="button"
          className="trace-full-toggle"
          onClick={() => setFull(!full)}
          aria-pressed={full}
          title={full ? 'Back to the chat' : 'Show the trace in the main area'}
          data-testid="trace-full-toggle"
        >
          {full ? <Minimize2 size={12} aria-hidden /> : <Maximize2 size={12} aria-hidden />} Full
          view
        </button>
        {canWindow && threadId && (
          <button
            type="button"
            onClick={() => void call('app.openTraceWindow', { threadId })}
            title="Open this trace in its own window"
            data-testid="trace-window"
          >
            <AppWindow size={12} aria-hidden /> Window
          </button>
        )}
        <button
          type="button"
          onClick={() => void doExport('otlp')}
          disabled={!threadId || spanCount === 0}
          title="OTLP JSON (Jaeger, collectors, Langfuse)"
          data-testid="trace-export-otlp"
        >
          OTLP
        </button>
        <button
          type="button"
          onClick={() => void doExport('chrome')}
          disabled={!threadId || spanCount === 0}
          title="Chrome trace JSON (Perfetto)"
          data-testid="trace-export-chrome"
        >
          Perfetto
        </button>
        <button
          type="button"
          onClick={() => fileInput.current?.click()}
          title="Import an OTLP JSON trace into a new thread"
        >
          Import
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          hidden
          onChange={(e) => void onFile(e.target.files)}
          data-testid="trace-import-input"
        />
      </div>
    </div>
  );
}

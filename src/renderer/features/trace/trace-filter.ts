/**
 * Timeline filters (pure): errors only, kinds, one tool, one hook, text search. A visible row keeps
 * its ancestors visible (dimmed) so a match is always shown in its tree.
 */
import type { SpanKind, SpanRecord } from '../../../shared/types/index.ts';
import type { LayoutRow } from './trace-layout.ts';
import { isSlow } from './trace-stats.ts';
import { hookName, toolName } from './span-names.ts';

export { hookName, toolName } from './span-names.ts';

export interface TraceFilter {
  errorsOnly: boolean;
  /** Only ended spans slower than the p90 of their operation (needs the p90 map). */
  slowOnly: boolean;
  /** Empty = every kind. */
  kinds: SpanKind[];
  tool: string;
  hook: string;
  text: string;
}

/** The filter that shows everything. */
export const NO_FILTER: TraceFilter = {
  errorsOnly: false,
  slowOnly: false,
  kinds: [],
  tool: '',
  hook: '',
  text: '',
};

/** True when no criterion is set. */
export function isEmptyFilter(f: TraceFilter): boolean {
  return (
    !f.errorsOnly && !f.slowOnly && f.kinds.length === 0 && !f.tool && !f.hook && !f.text.trim()
  );
}

/** Error, crash-closed or timed-out span. */
export function isProblem(span: SpanRecord): boolean {
  return (
    span.status.code === 'ERROR' ||
    span.incomplete === true ||
    span.attributes['workbench.hook.timed_out'] === true ||
    span.attributes['workbench.tool.timed_out'] === true
  );
}

function textOf(span: SpanRecord): string {
  let text = `${span.name} ${span.status.message ?? ''}`;
  for (const [k, v] of Object.entries(span.attributes))
    text += ` ${k}=${Array.isArray(v) ? v.join(',') : String(v)}`;
  return text.toLowerCase();
}

/** Whether one span meets the filter (ancestors aside). */
export function matchesFilter(
  span: SpanRecord,
  f: TraceFilter,
  p90: ReadonlyMap<string, number> = new Map(),
): boolean {
  if (f.errorsOnly && !isProblem(span)) return false;
  if (f.slowOnly && (span.end_ms === undefined || !isSlow(span, p90))) return false;
  if (f.kinds.length && !f.kinds.includes(span.kind)) return false;
  if (f.tool && toolName(span) !== f.tool) return false;
  if (f.hook && (span.kind !== 'hook' || hookName(span) !== f.hook)) return false;
  const q = f.text.trim().toLowerCase();
  if (q && !textOf(span).includes(q)) return false;
  return true;
}

export interface FilteredRows {
  /** Row indices to show, in order. */
  visible: number[];
  /** Of those, the ones that matched (the rest are context ancestors). */
  matched: Set<number>;
}

/** Filters one run's rows. Contract: O(rows); an empty filter returns every row as matched. */
export function filterRows(
  rows: readonly LayoutRow[],
  f: TraceFilter,
  p90?: ReadonlyMap<string, number>,
): FilteredRows {
  if (isEmptyFilter(f)) {
    const all = rows.map((_, i) => i);
    return { visible: all, matched: new Set(all) };
  }
  const show = new Uint8Array(rows.length);
  const matched = new Set<number>();
  for (let i = 0; i < rows.length; i++) {
    if (!matchesFilter(rows[i]!.span, f, p90)) continue;
    matched.add(i);
    for (let j = i; j >= 0 && !show[j]; j = rows[j]!.parent) show[j] = 1;
  }
  const visible: number[] = [];
  for (let i = 0; i < rows.length; i++) if (show[i]) visible.push(i);
  return { visible, matched };
}

/** Tool and hook names present, for the filter pickers. */
export function filterChoices(spans: readonly SpanRecord[]): { tools: string[]; hooks: string[] } {
  const tools = new Set<string>();
  const hooks = new Set<string>();
  for (const s of spans) {
    if (s.kind === 'tool') {
      const t = toolName(s);
      if (t) tools.add(t);
    } else if (s.kind === 'hook') {
      const h = hookName(s);
      if (h) hooks.add(h);
    }
  }
  return { tools: [...tools].sort(), hooks: [...hooks].sort() };
}

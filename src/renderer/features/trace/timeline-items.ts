/** The flat list the virtualized timeline renders: a header per run, then its visible span rows (pure). */
import { filterRows, type TraceFilter } from './trace-filter.ts';
import type { LayoutRow, RunLayout } from './trace-layout.ts';

export type TimelineItem =
  | { type: 'run'; run: RunLayout; shown: number }
  | { type: 'span'; run: RunLayout; row: LayoutRow; matched: boolean };

/** Height of a run header and a span row, in px. */
export const RUN_HEIGHT = 64;
export const ROW_HEIGHT = 22;

/** Builds the items for every run under the filter. Contract: runs without a visible row are left out when filtering. */
export function timelineItems(
  runs: readonly RunLayout[],
  filter: TraceFilter,
  filtering: boolean,
  p90?: ReadonlyMap<string, number>,
): TimelineItem[] {
  const items: TimelineItem[] = [];
  for (const run of runs) {
    const { visible, matched } = filterRows(run.rows, filter, p90);
    if (filtering && visible.length === 0) continue;
    items.push({ type: 'run', run, shown: visible.length });
    for (const i of visible)
      items.push({ type: 'span', run, row: run.rows[i]!, matched: matched.has(i) });
  }
  return items;
}

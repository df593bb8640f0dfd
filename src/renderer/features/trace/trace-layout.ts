/**
 * Precomputed timeline layout (pure, unit-tested): spans grouped into runs, each run's tree flattened
 * in depth-first start order with a depth, and a lane per span so overlapping siblings (parallel tool
 * calls) never share one. Computed once per span-list change, never per animation frame.
 */
import type { SpanRecord } from '../../../shared/types/index.ts';

export interface LayoutRow {
  span: SpanRecord;
  depth: number;
  /** 0 unless the span overlaps an earlier sibling; overlapping siblings get distinct lanes. */
  lane: number;
  /** Index of the parent row in the run's rows, -1 for a root. */
  parent: number;
}

export interface RunLayout {
  runId: string;
  root: SpanRecord | undefined;
  start: number;
  /** Latest end seen; the live end is `now` while `open`. */
  end: number;
  /** Some span of the run has no end yet. */
  open: boolean;
  rows: LayoutRow[];
  /** The run's spans as given (in input order), to reuse the layout when they did not change. */
  source: SpanRecord[];
}

function byStart(a: SpanRecord, b: SpanRecord): number {
  return a.start_ms - b.start_ms || (a.span_id < b.span_id ? -1 : a.span_id > b.span_id ? 1 : 0);
}

/** Lanes for one sibling group sorted by start: first lane whose last span ended by this start. */
export function assignSiblingLanes(siblings: readonly SpanRecord[]): number[] {
  const laneEnds: number[] = [];
  return siblings.map((s) => {
    const end = s.end_ms ?? Infinity;
    let lane = laneEnds.findIndex((e) => e <= s.start_ms);
    if (lane < 0) lane = laneEnds.length;
    laneEnds[lane] = end;
    return lane;
  });
}

function layoutRun(runId: string, spans: SpanRecord[]): RunLayout {
  const ids = new Set(spans.map((s) => s.span_id));
  const children = new Map<string, SpanRecord[]>();
  const roots: SpanRecord[] = [];
  let start = Infinity;
  let end = -Infinity;
  let open = false;
  for (const s of spans) {
    start = Math.min(start, s.start_ms);
    if (s.end_ms === undefined) open = true;
    end = Math.max(end, s.end_ms ?? s.start_ms);
    if (s.parent_span_id && ids.has(s.parent_span_id) && s.parent_span_id !== s.span_id) {
      const list = children.get(s.parent_span_id);
      if (list) list.push(s);
      else children.set(s.parent_span_id, [s]);
    } else roots.push(s);
  }
  const rows: LayoutRow[] = [];
  // Iterative DFS: deep or cyclic files must not overflow the stack; `seen` breaks cycles.
  const seen = new Set<string>();
  const stack: Array<{ span: SpanRecord; depth: number; lane: number; parent: number }> = [];
  const pushGroup = (group: SpanRecord[], depth: number, parent: number) => {
    group.sort(byStart);
    const lanes = assignSiblingLanes(group);
    for (let i = group.length - 1; i >= 0; i--)
      stack.push({ span: group[i]!, depth, lane: lanes[i]!, parent });
  };
  pushGroup(roots, 0, -1);
  while (stack.length) {
    const item = stack.pop()!;
    if (seen.has(item.span.span_id)) continue;
    seen.add(item.span.span_id);
    const index = rows.push(item) - 1;
    const kids = children.get(item.span.span_id);
    if (kids) pushGroup(kids, item.depth + 1, index);
  }
  const root = roots.find((s) => s.kind === 'agent') ?? roots[0];
  return {
    runId,
    root,
    start: Number.isFinite(start) ? start : 0,
    end: Number.isFinite(end) ? end : 0,
    open,
    rows,
    source: spans,
  };
}

function sameSpans(a: readonly SpanRecord[], b: readonly SpanRecord[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Groups spans into runs (ordered by first start) and lays each out. Contract: a run of `previous`
 * whose spans are the same objects is returned as is, so a live span only re-lays out its own run.
 */
export function layoutRuns(
  spans: readonly SpanRecord[],
  previous: readonly RunLayout[] = [],
): RunLayout[] {
  const top = topRuns(spans);
  const byRun = new Map<string, SpanRecord[]>();
  for (const s of spans) {
    const runId = top.get(s.run_id) ?? s.run_id;
    const list = byRun.get(runId);
    if (list) list.push(s);
    else byRun.set(runId, [s]);
  }
  const old = new Map(previous.map((r) => [r.runId, r]));
  return [...byRun]
    .map(([runId, list]) => {
      const prev = old.get(runId);
      return prev && sameSpans(prev.source, list) ? prev : layoutRun(runId, list);
    })
    .sort((a, b) => a.start - b.start);
}
/**
 * Run id → the run it is laid out in: a subagent's run nests under the `task` span of the run that
 * started it, so its spans join that run's tree (docs/agents.md). Runs absent from the map stand alone.
 */
function topRuns(spans: readonly SpanRecord[]): Map<string, string> {
  const runOf = new Map(spans.map((s) => [s.span_id, s.run_id]));
  const parentRun = new Map<string, string>();
  for (const s of spans) {
    const owner = s.parent_span_id ? runOf.get(s.parent_span_id) : undefined;
    if (owner && owner !== s.run_id) parentRun.set(s.run_id, owner);
  }
  const top = new Map<string, string>();
  for (const runId of parentRun.keys()) {
    let at = runId;
    // A bounded walk: a cyclic file must not hang the panel.
    for (let hops = 0; parentRun.has(at) && hops <= parentRun.size; hops++) at = parentRun.get(at)!;
    top.set(runId, at);
  }
  return top;
}

/** The displayed end of a run: `now` while something in it is open. */
export function runEnd(run: RunLayout, now: number): number {
  return run.open ? Math.max(now, run.end) : run.end;
}

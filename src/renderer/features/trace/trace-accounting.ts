/**
 * Time accounting per run (pure): where the wall time of a run went. Each instant counts once, for
 * the innermost activity (hook > tool > model); the user's wait comes out of tool time when spans
 * carry `workbench.permission.wait_ms` (an approval) or `workbench.elicitation.wait_ms` (an MCP
 * server's request for input); the rest is "other" (loop, hooks outside spans, idle).
 */
import type { SpanRecord } from '../../../shared/types/index.ts';

export interface TimeAccounting {
  total: number;
  model: number;
  tools: number;
  hooks: number;
  approval: number;
  other: number;
}

type Interval = [number, number];

/** Attributes of a tool span holding the time it waited for the user. */
const WAIT_KEYS = ['workbench.permission.wait_ms', 'workbench.elicitation.wait_ms'];

function union(list: Interval[]): Interval[] {
  const sorted = list.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const out: Interval[] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

function length(list: Interval[]): number {
  return list.reduce((n, [a, b]) => n + (b - a), 0);
}

/** Total length of `a` minus its overlap with `b` (both disjoint, sorted). */
function minus(a: Interval[], b: Interval[]): number {
  let total = 0;
  let j = 0;
  for (const [s, e] of a) {
    let covered = 0;
    while (j < b.length && b[j]![1] <= s) j++;
    for (let k = j; k < b.length && b[k]![0] < e; k++)
      covered += Math.min(e, b[k]![1]) - Math.max(s, b[k]![0]);
    total += e - s - covered;
  }
  return total;
}

/** Accounts one run's spans; open spans run to `now`. Contract: the parts sum to `total`. */
export function accountRun(spans: readonly SpanRecord[], now: number): TimeAccounting {
  if (spans.length === 0) return { total: 0, model: 0, tools: 0, hooks: 0, approval: 0, other: 0 };
  let start = Infinity;
  let end = -Infinity;
  const hook: Interval[] = [];
  const tool: Interval[] = [];
  const model: Interval[] = [];
  let waitMs = 0;
  for (const s of spans) {
    const e = s.end_ms ?? Math.max(now, s.start_ms);
    start = Math.min(start, s.start_ms);
    end = Math.max(end, e);
    if (s.kind === 'hook') hook.push([s.start_ms, e]);
    else if (s.kind === 'tool') {
      tool.push([s.start_ms, e]);
      for (const key of WAIT_KEYS) {
        const w = s.attributes[key];
        if (typeof w === 'number' && w > 0) waitMs += w;
      }
    } else if (s.kind === 'llm') model.push([s.start_ms, e]);
  }
  const H = union(hook);
  const T = union(tool);
  const HT = union([...H, ...T]);
  const M = union(model);
  const hooks = length(H);
  const toolsAll = minus(T, H);
  const approval = Math.min(waitMs, toolsAll);
  const modelMs = minus(M, HT);
  const total = end - start;
  const busy = length(union([...HT, ...M]));
  return {
    total,
    model: modelMs,
    tools: toolsAll - approval,
    hooks,
    approval,
    other: Math.max(0, total - busy),
  };
}

/** Time a span spent outside its children (children overlapping each other count once); open spans run to `now`. */
export function selfTime(span: SpanRecord, children: readonly SpanRecord[], now: number): number {
  const end = span.end_ms ?? Math.max(now, span.start_ms);
  const kids = union(
    children.map((c): Interval => [
      Math.max(span.start_ms, c.start_ms),
      Math.min(end, c.end_ms ?? now),
    ]),
  );
  return Math.max(0, end - span.start_ms - length(kids));
}

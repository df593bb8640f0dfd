/** Structural check of recorded spans: one tree per run, parents present, children inside parents. */
import type { SpanRecord } from '../../shared/types/index.ts';

export interface SpanTreeReport {
  ok: boolean;
  /** One line per problem, naming the run and span. */
  errors: string[];
  /** Root span per run id. */
  roots: Record<string, SpanRecord>;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Validates `spans` (any order). Contract: for each run, exactly one root, every parent exists in
 * the same run and trace, every span reachable from the root, and each ended child lies within its
 * ended parent's [start, end] ± `slackMs`.
 */
export function validateSpanTree(spans: readonly SpanRecord[], slackMs = 1): SpanTreeReport {
  const errors: string[] = [];
  const roots: Record<string, SpanRecord> = {};
  const byRun = new Map<string, SpanRecord[]>();
  for (const s of spans) pushTo(byRun, s.run_id, s);

  for (const [runId, list] of byRun) {
    const byId = new Map(list.map((s) => [s.span_id, s]));
    if (byId.size !== list.length) errors.push(`run ${runId}: duplicate span ids`);
    const runRoots = list.filter((s) => !s.parent_span_id);
    if (runRoots.length !== 1) {
      errors.push(`run ${runId}: expected exactly one root span, found ${runRoots.length} (${runRoots.map((r) => r.name).join(', ')})`);
    }
    if (runRoots[0]) roots[runId] = runRoots[0];
    const children = new Map<string, SpanRecord[]>();
    for (const s of list) {
      if (s.end_ms !== undefined && s.end_ms < s.start_ms) errors.push(`run ${runId}: span "${s.name}" ends before it starts`);
      if (s.trace_id !== list[0].trace_id) errors.push(`run ${runId}: span "${s.name}" has another trace id`);
      if (!s.parent_span_id) continue;
      const parent = byId.get(s.parent_span_id);
      if (!parent) {
        errors.push(`run ${runId}: span "${s.name}" (${s.span_id}) has a missing parent ${s.parent_span_id}`);
        continue;
      }
      pushTo(children, parent.span_id, s);
      if (s.start_ms < parent.start_ms - slackMs) errors.push(`run ${runId}: span "${s.name}" starts before its parent "${parent.name}"`);
      if (parent.end_ms !== undefined && (s.end_ms ?? Infinity) > parent.end_ms + slackMs) {
        errors.push(`run ${runId}: span "${s.name}" ends after its parent "${parent.name}"`);
      }
    }
    // Reachability also catches parent cycles, which a "parent exists" check alone would accept.
    const seen = new Set<string>();
    const stack = runRoots.slice();
    while (stack.length > 0) {
      const s = stack.pop() as SpanRecord;
      if (seen.has(s.span_id)) continue;
      seen.add(s.span_id);
      stack.push(...(children.get(s.span_id) ?? []));
    }
    const unreachable = list.filter((s) => !seen.has(s.span_id) && s.parent_span_id && byId.has(s.parent_span_id));
    if (unreachable.length > 0) errors.push(`run ${runId}: ${unreachable.length} span(s) not reachable from the root (cycle?)`);
  }
  return { ok: errors.length === 0, errors, roots };
}

/**
 * Local duration statistics (pure): the p90 of each operation (model, one tool, one hook) over the
 * thread's ended spans, for "slow" badges and filter and a "stuck" badge on a span still running past it.
 */
import type { SpanRecord } from '../../../shared/types/index.ts';
import { hookName, toolName } from './span-names.ts';

/** Fewer ended samples than this give no threshold. */
export const MIN_SAMPLES = 5;

/** The operation a span belongs to: `llm`, `tool:read_file`, `hook:guard`; undefined for runs. */
export function operationKey(span: SpanRecord): string | undefined {
  if (span.kind === 'llm') return 'llm';
  if (span.kind === 'tool') return `tool:${toolName(span) ?? span.name}`;
  if (span.kind === 'hook') return `hook:${hookName(span) ?? span.name}`;
  return undefined;
}

/** p90 duration per operation key (nearest-rank), for operations with at least MIN_SAMPLES ended spans. */
export function p90ByOperation(spans: readonly SpanRecord[]): Map<string, number> {
  const durations = new Map<string, number[]>();
  for (const s of spans) {
    const key = operationKey(s);
    if (!key || s.end_ms === undefined) continue;
    const list = durations.get(key);
    if (list) list.push(s.end_ms - s.start_ms);
    else durations.set(key, [s.end_ms - s.start_ms]);
  }
  const out = new Map<string, number>();
  for (const [key, list] of durations) {
    if (list.length < MIN_SAMPLES) continue;
    list.sort((a, b) => a - b);
    out.set(key, list[Math.ceil(0.9 * list.length) - 1]!);
  }
  return out;
}

/** True when the span took (or, open, is taking by `now`) longer than its operation's p90. */
export function isSlow(span: SpanRecord, p90: ReadonlyMap<string, number>, now = 0): boolean {
  const key = operationKey(span);
  const limit = key ? p90.get(key) : undefined;
  if (limit === undefined) return false;
  const end = span.end_ms ?? now;
  return end - span.start_ms > limit;
}

/** A text rendering of span trees (`workbench trace show`): one line per span with its duration. */
import type { SpanRecord } from '../../shared/types/index.ts';

function duration(s: SpanRecord): string {
  if (s.end_ms === undefined) return 'running';
  const ms = s.end_ms - s.start_ms;
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

function details(s: SpanRecord): string {
  const a = s.attributes;
  const parts: string[] = [];
  if (typeof a['gen_ai.usage.input_tokens'] === 'number') parts.push(`in=${a['gen_ai.usage.input_tokens']}`);
  if (typeof a['gen_ai.usage.output_tokens'] === 'number') parts.push(`out=${a['gen_ai.usage.output_tokens']}`);
  if (typeof a['workbench.stop_reason'] === 'string') parts.push(`stop=${a['workbench.stop_reason']}`);
  if (s.status.code === 'ERROR') parts.push(`ERROR ${a['error.type'] ?? ''}${s.status.message ? `: ${s.status.message}` : ''}`.trim());
  if (s.incomplete) parts.push('incomplete');
  return parts.length ? `  ${parts.join(' ')}` : '';
}

/** Renders spans as trees (roots by start time, children by start time), box-drawing indented. */
export function formatSpanTree(spans: readonly SpanRecord[]): string {
  const ids = new Set(spans.map((s) => s.span_id));
  const children = new Map<string, SpanRecord[]>();
  const roots: SpanRecord[] = [];
  for (const s of spans) {
    if (!s.parent_span_id || !ids.has(s.parent_span_id)) roots.push(s);
    else if (children.has(s.parent_span_id)) children.get(s.parent_span_id)?.push(s);
    else children.set(s.parent_span_id, [s]);
  }
  const byStart = (a: SpanRecord, b: SpanRecord) => a.start_ms - b.start_ms;
  const lines: string[] = [];
  const walk = (s: SpanRecord, prefix: string, last: boolean, top: boolean) => {
    lines.push(`${top ? '' : `${prefix}${last ? '└─ ' : '├─ '}`}${s.name}  ${duration(s)}${details(s)}`);
    const kids = (children.get(s.span_id) ?? []).sort(byStart);
    const next = top ? '' : `${prefix}${last ? '   ' : '│  '}`;
    kids.forEach((k, i) => walk(k, next, i === kids.length - 1, false));
  };
  for (const r of roots.sort(byStart)) {
    lines.push(`# run ${r.run_id}  trace ${r.trace_id}  ${new Date(r.start_ms).toISOString()}`);
    walk(r, '', true, true);
  }
  return lines.length ? `${lines.join('\n')}\n` : 'no spans\n';
}

/** Cross-links between a run's spans (pure): the chat span that asked for a tool call, and the calls a chat span asked for. */
import type { SpanRecord } from '../../../shared/types/index.ts';
import type { RunLayout } from './trace-layout.ts';

function callIds(span: SpanRecord): string[] {
  const v = span.attributes['workbench.tool_call_ids'];
  return Array.isArray(v) ? v : [];
}

function callId(span: SpanRecord): string | undefined {
  const v = span.attributes['gen_ai.tool.call.id'] ?? span.attributes['tool_call_id'];
  return typeof v === 'string' ? v : undefined;
}

/** For a tool span, the chat span that requested it; for a chat span, the tool spans it requested. */
export function linkedSpans(
  span: SpanRecord,
  run: RunLayout | undefined,
): { requestedBy?: SpanRecord; requested: SpanRecord[] } {
  if (!run) return { requested: [] };
  if (span.kind === 'tool') {
    const id = callId(span);
    const chat = id
      ? run.rows.find((r) => r.span.kind === 'llm' && callIds(r.span).includes(id))
      : undefined;
    return { requestedBy: chat?.span, requested: [] };
  }
  if (span.kind === 'llm') {
    const ids = new Set(callIds(span));
    return {
      requested: ids.size
        ? run.rows
            .filter((r) => r.span.kind === 'tool' && ids.has(callId(r.span) ?? ''))
            .map((r) => r.span)
        : [],
    };
  }
  return { requested: [] };
}

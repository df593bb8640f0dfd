/**
 * A synthetic trace for a thread: runs of 100 spans (an `invoke_agent` root, then 33 rounds of a chat
 * span, its tool call and a hook under the tool), like the tracing hook records them. One tool span is
 * a `grep` call (the needle the filter benchmark searches for).
 */
import type { SpanRecord } from '../../src/shared/types/index.ts';
import type { Database } from '../../src/main/store/index.ts';

export const NEEDLE_TOOL = 'grep';

export function syntheticSpans(threadId: string, count: number): SpanRecord[] {
  const spans: SpanRecord[] = [];
  const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
  let t = 1_760_000_000_000;
  let needlePlaced = false;
  for (let run = 0; spans.length < count; run++) {
    const runId = `run_${hex(run, 16)}`;
    const traceId = hex(run + 1, 32);
    const base = { trace_id: traceId, thread_id: threadId, run_id: runId, events: [] };
    const root = hex(spans.length + 1, 16);
    const runStart = t;
    spans.push({
      ...base,
      span_id: root,
      name: 'invoke_agent workbench',
      kind: 'agent',
      start_ms: runStart,
      end_ms: runStart + 3400,
      status: { code: 'OK' },
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.request.model': 'fake-model' },
    });
    for (let round = 0; round < 33 && spans.length < count; round++) {
      const chat = hex(spans.length + 1, 16);
      spans.push({
        ...base,
        span_id: chat,
        parent_span_id: root,
        name: 'chat fake-model',
        kind: 'llm',
        start_ms: t,
        end_ms: t + 60,
        status: { code: 'OK' },
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.usage.input_tokens': 1200 + round,
          'gen_ai.usage.output_tokens': 40,
        },
      });
      if (spans.length >= count) break;
      const needle = !needlePlaced && spans.length >= count / 2;
      if (needle) needlePlaced = true;
      const tool = needle ? NEEDLE_TOOL : 'read_file';
      const toolId = hex(spans.length + 1, 16);
      spans.push({
        ...base,
        span_id: toolId,
        parent_span_id: root,
        name: `execute_tool ${tool}`,
        kind: 'tool',
        start_ms: t + 61,
        end_ms: t + 95,
        status: { code: 'OK' },
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': tool,
          'gen_ai.tool.call.id': `call_${toolId}`,
          tool_args: '{"path":"src/router.ts"}',
          output_length: 1200,
        },
      });
      if (spans.length >= count) break;
      spans.push({
        ...base,
        span_id: hex(spans.length + 1, 16),
        parent_span_id: toolId,
        name: 'hook before_tool_call guard',
        kind: 'hook',
        start_ms: t + 62,
        end_ms: t + 70,
        status: { code: 'OK' },
        attributes: {
          'workbench.hook.name': 'guard',
          'workbench.hook.event': 'before_tool_call',
          'workbench.hook.decision': 'none',
        },
      });
      t += 100;
    }
    t += 200;
  }
  return spans;
}

/** Writes `count` spans for the thread in one transaction. */
export function writeSyntheticSpans(db: Database, threadId: string, count: number): void {
  const spans = syntheticSpans(threadId, count);
  db.transaction(() => {
    for (const span of spans) db.spans.upsert(span);
  });
}

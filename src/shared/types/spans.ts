/**
 * Trace spans on the OpenTelemetry GenAI model (docs/tracing.md). Times are epoch
 * milliseconds with sub-millisecond fraction; exporters convert to nanoseconds.
 */
export type SpanKind = 'agent' | 'llm' | 'tool' | 'hook' | 'internal';
export type SpanStatusCode = 'UNSET' | 'OK' | 'ERROR';
export type AttributeValue = string | number | boolean | string[];

export interface SpanEvent {
  name: string;
  time_ms: number;
  attributes?: Record<string, AttributeValue>;
}

export interface SpanRecord {
  trace_id: string; // 32 lowercase hex
  span_id: string; // 16 lowercase hex
  parent_span_id?: string;
  name: string; // "invoke_agent workbench", "chat gpt-4o", "execute_tool read_file", "hook before_tool_call guard"
  kind: SpanKind;
  thread_id: string;
  run_id: string;
  start_ms: number;
  end_ms?: number; // absent while running
  status: { code: SpanStatusCode; message?: string };
  attributes: Record<string, AttributeValue>;
  events: SpanEvent[];
  incomplete?: boolean; // closed at recovery after a crash
}

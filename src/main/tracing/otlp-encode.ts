/**
 * SpanRecord[] → OTLP/JSON (one ExportTraceServiceRequest): hex ids, int64 as decimal strings,
 * enums as integers, wrapped attribute values. Loads in Jaeger's UI and POSTs to any /v1/traces.
 */
import type { AttributeValue, SpanRecord } from '../../shared/types/index.ts';
import { redactAttributes } from './attributes.ts';
import { msToNanoString } from './clock.ts';
import { OTLP_KIND_CLIENT, OTLP_KIND_INTERNAL, OTLP_STATUS } from './otlp-types.ts';
import type { OtlpAnyValue, OtlpKeyValue, OtlpSpan, OtlpTraceRequest } from './otlp-types.ts';

/** Scope and default service name of everything we export. */
export const SCOPE_NAME = 'agent-workbench';
/** GenAI semconv version we follow (recorded as schema URL). */
export const SCHEMA_URL = 'https://opentelemetry.io/schemas/1.37.0';

/** Local-only fields carried as attributes so an import restores the record exactly. */
export const LOCAL_KEYS = {
  kind: 'workbench.span.kind',
  thread: 'workbench.thread.id',
  run: 'workbench.run.id',
  incomplete: 'workbench.incomplete',
} as const;

export interface OtlpExportOptions {
  /** Keep content attributes (previews, args, outputs, payloads). Off → they are dropped. */
  captureContent: boolean;
  serviceName?: string;
  /** Extra resource attributes. */
  resource?: Record<string, AttributeValue>;
}

/** One attribute value in OTLP's wrapped form: integers as intValue strings, other numbers as doubles. */
export function toAnyValue(value: AttributeValue): OtlpAnyValue {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isSafeInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  return { arrayValue: { values: value.map((v) => ({ stringValue: String(v) })) } };
}

/** A record of attributes as an OTLP key/value list. */
export function toKeyValues(attrs: Record<string, AttributeValue>): OtlpKeyValue[] {
  return Object.entries(attrs).map(([key, value]) => ({ key, value: toAnyValue(value) }));
}

function encodeSpan(span: SpanRecord, captureContent: boolean, fallbackEndMs: number): OtlpSpan {
  const attrs: Record<string, AttributeValue> = { ...redactAttributes(span.attributes, captureContent) };
  attrs[LOCAL_KEYS.kind] = span.kind;
  attrs[LOCAL_KEYS.thread] = span.thread_id;
  attrs[LOCAL_KEYS.run] = span.run_id;
  if (span.incomplete || span.end_ms === undefined) attrs[LOCAL_KEYS.incomplete] = true;
  const out: OtlpSpan = {
    traceId: span.trace_id,
    spanId: span.span_id,
    name: span.name,
    kind: span.kind === 'llm' ? OTLP_KIND_CLIENT : OTLP_KIND_INTERNAL,
    startTimeUnixNano: msToNanoString(span.start_ms),
    // OTLP has no "still running": an open span is exported ending at the latest time we know of.
    endTimeUnixNano: msToNanoString(span.end_ms ?? Math.max(span.start_ms, fallbackEndMs)),
    attributes: toKeyValues(attrs),
    events: span.events.map((e) => ({
      timeUnixNano: msToNanoString(e.time_ms),
      name: e.name,
      attributes: toKeyValues(redactAttributes(e.attributes ?? {}, captureContent)),
    })),
    status: span.status.message
      ? { code: OTLP_STATUS[span.status.code], message: span.status.message }
      : { code: OTLP_STATUS[span.status.code] },
  };
  if (span.parent_span_id) out.parentSpanId = span.parent_span_id;
  return out;
}

/** The latest timestamp in `spans` (ends, starts and events), used to close open spans on export. */
export function latestTime(spans: readonly SpanRecord[]): number {
  let t = -Infinity;
  for (const s of spans) {
    t = Math.max(t, s.start_ms, s.end_ms ?? -Infinity);
    for (const e of s.events) t = Math.max(t, e.time_ms);
  }
  return t;
}

/**
 * Encodes spans as one OTLP/JSON request. Contract: content attributes are absent unless
 * `captureContent`; the result is plain JSON (JSON.stringify it to write or POST).
 */
export function toOtlpJson(spans: readonly SpanRecord[], opts: OtlpExportOptions): OtlpTraceRequest {
  const fallbackEnd = latestTime(spans);
  const resource: Record<string, AttributeValue> = {
    'service.name': opts.serviceName ?? SCOPE_NAME,
    'telemetry.sdk.name': SCOPE_NAME,
    'telemetry.sdk.language': 'nodejs',
    ...opts.resource,
  };
  return {
    resourceSpans: [
      {
        resource: { attributes: toKeyValues(resource) },
        scopeSpans: [
          {
            scope: { name: SCOPE_NAME },
            schemaUrl: SCHEMA_URL,
            spans: spans.map((s) => encodeSpan(s, opts.captureContent, fallbackEnd)),
          },
        ],
      },
    ],
  };
}

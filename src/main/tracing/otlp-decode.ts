/**
 * OTLP/JSON → SpanRecord[] (trace import). Tolerant where exporters differ (intValue as string or
 * number, missing optional fields, several resource/scope blocks); strict where data would be
 * wrong (bad ids, bad times), failing with an Error that names the span and the field.
 */
import type { AttributeValue, SpanKind, SpanRecord, SpanStatusCode } from '../../shared/types/index.ts';
import { nanoToMs } from './clock.ts';
import { isHexId } from './ids.ts';
import { LOCAL_KEYS } from './otlp-encode.ts';
import { OTLP_KIND_CLIENT } from './otlp-types.ts';
import type { OtlpAnyValue, OtlpKeyValue } from './otlp-types.ts';
import { errorMessage } from '../errors.ts';

export interface OtlpImportOptions {
  /** Thread id for spans that carry none (foreign traces); default 'imported'. */
  threadId?: string;
}

const KINDS: readonly SpanKind[] = ['agent', 'llm', 'tool', 'hook', 'internal'];
const STATUS: Record<number, SpanStatusCode> = { 0: 'UNSET', 1: 'OK', 2: 'ERROR' };
const STATUS_NAMES: Record<string, SpanStatusCode> = {
  STATUS_CODE_UNSET: 'UNSET',
  STATUS_CODE_OK: 'OK',
  STATUS_CODE_ERROR: 'ERROR',
};

function fail(where: string, problem: string): never {
  throw new Error(`invalid OTLP JSON: ${where}: ${problem}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function list(v: unknown, where: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail(where, 'expected an array');
  return v;
}

/** One OTLP value → our attribute value (nested lists/maps become JSON strings). */
function fromAnyValue(value: unknown, where: string): AttributeValue | undefined {
  if (!isObject(value)) fail(where, 'attribute value is not an object');
  const v = value as OtlpAnyValue;
  if (v.stringValue !== undefined) return String(v.stringValue);
  if (v.boolValue !== undefined) return Boolean(v.boolValue);
  if (v.intValue !== undefined) {
    const n = Number(v.intValue);
    if (!Number.isFinite(n)) fail(where, `intValue ${JSON.stringify(v.intValue)} is not a number`);
    return n;
  }
  if (v.doubleValue !== undefined) return Number(v.doubleValue);
  if (v.arrayValue !== undefined) {
    const items = list(v.arrayValue?.values, `${where}.arrayValue`).map((x) => fromAnyValue(x, where));
    return items.map((x) => String(x));
  }
  if (v.kvlistValue !== undefined) return JSON.stringify(fromKeyValues(list(v.kvlistValue?.values, where) as OtlpKeyValue[], where));
  if (v.bytesValue !== undefined) return String(v.bytesValue);
  return undefined;
}

function fromKeyValues(kvs: unknown[], where: string): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const kv of kvs) {
    if (!isObject(kv) || typeof kv.key !== 'string') fail(where, 'attribute without a string "key"');
    const value = fromAnyValue(kv.value ?? {}, `${where} attribute "${kv.key}"`);
    if (value !== undefined) out[kv.key] = value;
  }
  return out;
}

function time(v: unknown, where: string): number {
  if (typeof v !== 'string' && typeof v !== 'number') fail(where, 'missing or not a decimal string');
  if (typeof v === 'string' && !/^\s*\d+\s*$/.test(v)) fail(where, `${JSON.stringify(v)} is not a decimal string`);
  return nanoToMs(v);
}

function statusCode(v: unknown): SpanStatusCode {
  if (typeof v === 'number') return STATUS[v] ?? 'UNSET';
  if (typeof v === 'string') return STATUS_NAMES[v] ?? STATUS[Number(v)] ?? 'UNSET';
  return 'UNSET';
}

function guessKind(otlpKind: unknown, attrs: Record<string, AttributeValue>): SpanKind {
  const op = attrs['gen_ai.operation.name'];
  if (op === 'invoke_agent') return 'agent';
  if (op === 'chat' || op === 'text_completion' || otlpKind === OTLP_KIND_CLIENT) return 'llm';
  if (op === 'execute_tool') return 'tool';
  return 'internal';
}

function decodeSpan(raw: unknown, where: string, opts: OtlpImportOptions): SpanRecord {
  if (!isObject(raw)) fail(where, 'span is not an object');
  const name = typeof raw.name === 'string' ? raw.name : fail(where, 'missing "name"');
  const at = `${where} ("${name}")`;
  const traceId = typeof raw.traceId === 'string' ? raw.traceId.toLowerCase() : '';
  const spanId = typeof raw.spanId === 'string' ? raw.spanId.toLowerCase() : '';
  if (!isHexId(traceId, 32)) fail(at, `traceId ${JSON.stringify(raw.traceId)} is not 32 hex chars (base64 ids are not supported)`);
  if (!isHexId(spanId, 16)) fail(at, `spanId ${JSON.stringify(raw.spanId)} is not 16 hex chars`);
  const attrs = fromKeyValues(list(raw.attributes, `${at}.attributes`), at);
  const kindAttr = attrs[LOCAL_KEYS.kind];
  const kind = KINDS.includes(kindAttr as SpanKind) ? (kindAttr as SpanKind) : guessKind(raw.kind, attrs);
  const threadId = typeof attrs[LOCAL_KEYS.thread] === 'string' ? (attrs[LOCAL_KEYS.thread] as string) : (opts.threadId ?? 'imported');
  const runId = typeof attrs[LOCAL_KEYS.run] === 'string' ? (attrs[LOCAL_KEYS.run] as string) : traceId;
  const incomplete = attrs[LOCAL_KEYS.incomplete] === true;
  for (const k of Object.values(LOCAL_KEYS)) delete attrs[k];

  const status = isObject(raw.status) ? raw.status : {};
  const span: SpanRecord = {
    trace_id: traceId,
    span_id: spanId,
    name,
    kind,
    thread_id: threadId,
    run_id: runId,
    start_ms: time(raw.startTimeUnixNano, `${at}.startTimeUnixNano`),
    status: { code: statusCode(status.code) },
    attributes: attrs,
    events: list(raw.events, `${at}.events`).map((e, i) => {
      if (!isObject(e)) fail(`${at}.events[${i}]`, 'event is not an object');
      const event: SpanRecord['events'][number] = {
        name: String(e.name ?? ''),
        time_ms: time(e.timeUnixNano, `${at}.events[${i}].timeUnixNano`),
      };
      const ea = fromKeyValues(list(e.attributes, `${at}.events[${i}].attributes`), `${at}.events[${i}]`);
      if (Object.keys(ea).length > 0) event.attributes = ea;
      return event;
    }),
  };
  if (typeof status.message === 'string' && status.message) span.status.message = status.message;
  if (typeof raw.parentSpanId === 'string' && raw.parentSpanId !== '') {
    const parent = raw.parentSpanId.toLowerCase();
    if (!isHexId(parent, 16)) fail(at, `parentSpanId ${JSON.stringify(raw.parentSpanId)} is not 16 hex chars`);
    span.parent_span_id = parent;
  }
  if (raw.endTimeUnixNano !== undefined && raw.endTimeUnixNano !== '0' && raw.endTimeUnixNano !== 0) {
    span.end_ms = time(raw.endTimeUnixNano, `${at}.endTimeUnixNano`);
  }
  if (incomplete) span.incomplete = true;
  return span;
}

/**
 * Decodes an OTLP/JSON request (object or JSON text). Contract: throws an Error naming the problem
 * (e.g. `resourceSpans[0].scopeSpans[0].spans[3] ("chat gpt-4o"): spanId … is not 16 hex chars`).
 */
export function fromOtlpJson(json: unknown, opts: OtlpImportOptions = {}): SpanRecord[] {
  let doc = json;
  if (typeof doc === 'string') {
    try {
      doc = JSON.parse(doc);
    } catch (err) {
      fail('file', `not JSON (${errorMessage(err)})`);
    }
  }
  if (!isObject(doc) || !Array.isArray(doc.resourceSpans)) fail('top level', 'expected an object with a "resourceSpans" array');
  const spans: SpanRecord[] = [];
  doc.resourceSpans.forEach((rs: unknown, i: number) => {
    const rWhere = `resourceSpans[${i}]`;
    if (!isObject(rs)) fail(rWhere, 'not an object');
    // Older exporters wrote instrumentationLibrarySpans; accept both.
    const scopes = list(rs.scopeSpans ?? rs.instrumentationLibrarySpans, `${rWhere}.scopeSpans`);
    scopes.forEach((ss, j) => {
      const sWhere = `${rWhere}.scopeSpans[${j}]`;
      if (!isObject(ss)) fail(sWhere, 'not an object');
      list(ss.spans, `${sWhere}.spans`).forEach((raw, k) => spans.push(decodeSpan(raw, `${sWhere}.spans[${k}]`, opts)));
    });
  });
  return spans;
}

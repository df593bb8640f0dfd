/** The OTLP/JSON shapes we write and read (ExportTraceServiceRequest, https://opentelemetry.io/docs/specs/otlp/). */

export interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  /** int64 as a decimal string (we also accept numbers on import). */
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
  bytesValue?: string;
}

export interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}

export interface OtlpEvent {
  timeUnixNano: string;
  name: string;
  attributes: OtlpKeyValue[];
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1 INTERNAL, 2 SERVER, 3 CLIENT, 4 PRODUCER, 5 CONSUMER. */
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpKeyValue[];
  events: OtlpEvent[];
  /** 0 UNSET, 1 OK, 2 ERROR. */
  status: { code: number; message?: string };
}

export interface OtlpTraceRequest {
  resourceSpans: {
    resource: { attributes: OtlpKeyValue[] };
    scopeSpans: { scope: { name: string; version?: string }; schemaUrl?: string; spans: OtlpSpan[] }[];
    schemaUrl?: string;
  }[];
}

export const OTLP_KIND_INTERNAL = 1;
export const OTLP_KIND_CLIENT = 3;
export const OTLP_STATUS = { UNSET: 0, OK: 1, ERROR: 2 } as const;

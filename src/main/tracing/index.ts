/** Public surface of tracing: recorder, root span helpers, exports/imports, live exporter, checks. */
export type { SpanHandle, TraceRecorder } from './types.ts';
export { createTraceRecorder, type RecorderWithStats, type SpanSink, type TraceRecorderOptions } from './recorder.ts';
export { createSpanSink, type SpanSinkTargets } from './span-sink.ts';
export { startRunSpan, endRunSpan, setRunMetadata, AGENT_NAME, PROVIDER_NAME, type RunSpanInfo, type RunSpanOutcome } from './run-span.ts';
export { toOtlpJson, SCOPE_NAME, type OtlpExportOptions } from './otlp-encode.ts';
export { fromOtlpJson, type OtlpImportOptions } from './otlp-decode.ts';
export type { OtlpTraceRequest, OtlpSpan } from './otlp-types.ts';
export { toChromeTrace, type ChromeTrace, type ChromeTraceEvent, type ChromeExportOptions } from './chrome-trace.ts';
export { exporterFromSettings } from './exporter-settings.ts';
export { createOtlpHttpExporter, parseRetryAfter, type OtlpExporter, type OtlpExporterOptions, type OtlpExporterStats } from './otlp-exporter.ts';
export { errorType, runInSpan } from './in-span.ts';
export { validateSpanTree, type SpanTreeReport } from './validate.ts';
export { formatSpanTree } from './tree-text.ts';
export { isContentAttribute, redactAttributes, truncate, PREVIEW_CHARS, MAX_ATTRIBUTE_CHARS } from './attributes.ts';
export { spanNow, msToNanoString, nanoToMs } from './clock.ts';
export { newSpanId, newTraceId, isHexId } from './ids.ts';

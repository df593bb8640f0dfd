/** Helper for code that opens its own spans (lifecycle hook runs, memory loads, permission waits). */
import type { AttributeValue, SpanKind } from '../../shared/types/index.ts';
import type { SpanHandle, TraceRecorder } from './types.ts';

/**
 * Runs `fn` inside a child span of the current span, ending it afterwards; a throw fails the span
 * with `error.type` = the error's name and is rethrown. Contract: with no recorder, just runs `fn`.
 */
export async function runInSpan<T>(
  trace: TraceRecorder | undefined,
  name: string,
  kind: SpanKind,
  attributes: Record<string, AttributeValue>,
  fn: (span: SpanHandle | undefined) => Promise<T>,
): Promise<T> {
  if (!trace) return fn(undefined);
  const span = trace.startSpan(name, kind, attributes);
  try {
    return await trace.withSpan(span, () => fn(span));
  } catch (err) {
    span.fail(err instanceof Error ? err.name || 'Error' : '_OTHER', err instanceof Error ? err.message : String(err));
    throw err;
  } finally {
    span.end();
  }
}

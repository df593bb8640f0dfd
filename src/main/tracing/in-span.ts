/** Helper for code that opens its own spans (lifecycle hook runs, memory loads, permission waits). */
import type { AttributeValue, SpanKind } from '../../shared/types/index.ts';
import type { SpanHandle, TraceRecorder } from './types.ts';
import { errorMessage } from '../errors.ts';

/** `error.type` for a thrown error: its string `code` (LlmError's, Node's ENOENT…), else its name. */
export function errorType(err: unknown): string {
  if (!(err instanceof Error)) return '_OTHER';
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code ? code : err.name || 'Error';
}

/**
 * Runs `fn` inside a child span of the current span, ending it afterwards; a throw fails the span
 * with `error.type` from errorType() and is rethrown. Contract: with no recorder, just runs `fn`.
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
    span.fail(errorType(err), errorMessage(err));
    throw err;
  } finally {
    span.end();
  }
}

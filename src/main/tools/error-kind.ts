/**
 * How an outside tool names the kind of its failure (docs/tools.md#errors-and-retries): the fields
 * `error_kind` (`retryable`, `cancel`, `discard`, `snooze`) and `snooze_seconds` of an HTTP tool's
 * JSON answer or an MCP result's structured content.
 */
import { ToolError, TOOL_ERROR_KINDS, type ToolErrorKind } from './types.ts';

/** A ToolError with the kind `fields` name. Contract: a missing or unknown kind is `retryable`. */
export function toolErrorFrom(
  message: string,
  fields: Record<string, unknown> | undefined,
): ToolError {
  const named = fields?.error_kind;
  const kind = TOOL_ERROR_KINDS.includes(named as ToolErrorKind)
    ? (named as ToolErrorKind)
    : 'retryable';
  const seconds = fields?.snooze_seconds;
  return new ToolError(
    message,
    kind,
    typeof seconds === 'number' && seconds >= 0 ? seconds * 1000 : undefined,
  );
}

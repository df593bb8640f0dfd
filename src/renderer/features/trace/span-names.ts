/** Tool and hook names of spans (pure). */
import type { SpanRecord } from '../../../shared/types/index.ts';

/** Tool name of an execute_tool span. */
export function toolName(span: SpanRecord): string | undefined {
  const v = span.attributes['gen_ai.tool.name'] ?? span.attributes['tool_name'];
  return typeof v === 'string' ? v : undefined;
}

/** Hook name of a hook span. */
export function hookName(span: SpanRecord): string | undefined {
  const v = span.attributes['workbench.hook.name'];
  return typeof v === 'string'
    ? v
    : span.kind === 'hook'
      ? span.name.split(' ').slice(2).join(' ') || span.name
      : undefined;
}

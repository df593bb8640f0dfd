import type { SpanRecord } from '../../../shared/types/index.ts';
import { RevertButton } from './RevertButton.tsx';

const WRITING_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file', 'execute']);

/** The trace drawer's action on a write, edit or command span: revert exactly that tool call. */
export function SpanRevert({ span }: { span: SpanRecord }) {
  const tool = span.attributes['gen_ai.tool.name'];
  const callId = span.attributes['gen_ai.tool.call.id'];
  if (typeof tool !== 'string' || !WRITING_TOOLS.has(tool) || typeof callId !== 'string')
    return null;
  if (span.end_ms === undefined || span.status.code === 'ERROR') return null;
  return (
    <div className="span-revert" data-testid="span-revert">
      <RevertButton
        threadId={span.thread_id}
        target={{ toolCallId: callId }}
        label="Revert this change"
        title="Restore the file as it was before this call"
        testId="span-revert-button"
      />
    </div>
  );
}

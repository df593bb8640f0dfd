/** The chat card's link to its span: opens the trace (dock or full view) with the span selected. */
import { Activity } from 'lucide-react';
import { useWorkbenchStore } from '../../stores/store.ts';
import { useLayout } from '../layout/layout-store.ts';
import { spanOfCall } from './span-reveal.ts';

/** A small "Trace" button for one tool call. */
export function ShowSpanButton({ callId }: { callId: string }) {
  const show = async () => {
    const s = useWorkbenchStore.getState();
    const threadId = s.activeThreadId;
    if (!threadId) return;
    await s.loadTrace(threadId);
    const spans = useWorkbenchStore.getState().trace.threads[threadId]?.spans ?? [];
    const span = spanOfCall(spans, callId);
    if (!span) {
      s.setBanner('This call has no span yet (the trace records it when it starts).');
      return;
    }
    s.selectSpan(span.span_id);
    if (!useLayout.getState().traceFull) s.setDockTab('trace');
  };
  return (
    <button
      type="button"
      className="link-button tool-span-link"
      onClick={() => void show()}
      title="Show this call's span in the trace"
      data-testid="tool-show-span"
    >
      <Activity size={12} aria-hidden /> Trace
    </button>
  );
}

/** The trace timeline taking the main area in place of the chat and the dock (Esc or the button leaves). */
import { useEffect } from 'react';
import { Minimize2 } from 'lucide-react';
import { useWorkbenchStore } from '../../stores/store.ts';
import { useLayout } from '../layout/layout-store.ts';
import { TracePanel } from './TracePanel.tsx';

/** The full trace view. */
export function TraceFullView() {
  const setTraceFull = useLayout((s) => s.setTraceFull);
  const title = useWorkbenchStore(
    (s) => s.threads.find((t) => t.thread_id === s.activeThreadId)?.title,
  );
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) setTraceFull(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setTraceFull]);
  return (
    <main className="trace-full" aria-label="Trace" data-testid="trace-full">
      <header className="chat-header">
        <h1>{`Trace — ${title ?? 'no thread'}`}</h1>
        <button
          type="button"
          className="icon-button layout-toggle trace-full-exit"
          onClick={() => setTraceFull(false)}
          data-testid="trace-full-exit"
        >
          <Minimize2 size={16} aria-hidden /> Back to chat
        </button>
      </header>
      <div className="trace-full-body">
        <TracePanel />
      </div>
    </main>
  );
}

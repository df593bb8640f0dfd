/** The trace timeline taking the main area in place of the chat and the dock (Esc or the button leaves). */
import { useEffect } from 'react';
import { Minimize2 } from 'lucide-react';
import { useWorkbenchStore } from '../../stores/store.ts';
import { useLayout } from '../layout/layout-store.ts';
import { TracePanel } from './TracePanel.tsx';

/** The thread a `#trace=<id>` page (the Electron trace window) shows, if this is one. */
export function traceWindowThread(hash: string): string | null {
  const m = /^#trace=(.+)$/.exec(hash);
  return m ? decodeURIComponent(m[1]!) : null;
}

/** The full trace view; `standalone` in its own window, where leaving closes the window. */
export function TraceFullView({ standalone = false }: { standalone?: boolean }) {
  const setTraceFull = useLayout((s) => s.setTraceFull);
  const leave = () => (standalone ? window.close() : setTraceFull(false));
  const title = useWorkbenchStore(
    (s) => s.threads.find((t) => t.thread_id === s.activeThreadId)?.title,
  );
  useEffect(() => {
    if (standalone) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) setTraceFull(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setTraceFull, standalone]);
  return (
    <main className="trace-full" aria-label="Trace" data-testid="trace-full">
      <header className="chat-header">
        <h1>{`Trace — ${title ?? 'no thread'}`}</h1>
        <button
          type="button"
          className="icon-button layout-toggle trace-full-exit"
          onClick={leave}
          data-testid="trace-full-exit"
        >
          <Minimize2 size={16} aria-hidden /> {standalone ? 'Close window' : 'Back to chat'}
        </button>
      </header>
      <div className="trace-full-body">
        <TracePanel />
      </div>
    </main>
  );
}

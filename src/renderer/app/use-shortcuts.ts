import { useEffect } from 'react';
import { useWorkbenchStore } from '../stores/store.ts';

/** Global keys: Esc cancels the run, Ctrl/Cmd+N new thread, Ctrl/Cmd+K thread search. */
export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const s = useWorkbenchStore.getState();
      const mod = e.ctrlKey || e.metaKey;
      if (e.key === 'Escape') {
        const running = s.activeThreadId && s.chat.threads[s.activeThreadId]?.running;
        if (running && !s.trustPrompt && !s.onboarding) {
          e.preventDefault();
          void s.cancel();
        }
      } else if (mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'n') {
        e.preventDefault();
        void s.openThread(null);
      } else if (mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        s.focusSearch();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

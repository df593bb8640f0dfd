import { useEffect } from 'react';
import { getBridge } from '../../ipc/client.ts';
import { useWorkbenchStore } from '../../stores/store.ts';

/** Reloads the recent runs when hooks run during a chat (at most every half second). */
export function useHooksWatch(): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = getBridge().on('agent.event', ({ event: e }) => {
      if (e.event !== 'on_hook_end' && e.event !== 'done') return;
      timer ??= setTimeout(() => {
        timer = undefined;
        void useWorkbenchStore.getState().loadHookRuns();
        if (e.event === 'done') void useWorkbenchStore.getState().loadHooks();
      }, 500);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, []);
}

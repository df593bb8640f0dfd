/** Loads what the first screen needs and wires the event feed and menu commands. */
import { call, getBridge } from '../ipc/client.ts';
import { startEventFeed } from '../stores/event-feed.ts';
import { useWorkbenchStore } from '../stores/store.ts';
import { errorMessage } from '../../shared/error-message.ts';

export const ACTIVE_THREAD_KEY = 'wb.activeThread';

/** Starts the app; returns the cleanup function. */
export function bootstrap(): () => void {
  const stopFeed = startEventFeed();
  const offCommands = getBridge().on('app.command', (c) => {
    const s = useWorkbenchStore.getState();
    if (c.action === 'new_thread') void s.openThread(null);
    else if (c.action === 'search_threads') s.focusSearch();
    else if (c.action === 'open_settings') s.setDockTab('settings');
    else if (c.action === 'open_folder') void s.openWorkspace();
    else if (c.action === 'cancel_run') void s.cancel();
  });
  const unsubscribe = useWorkbenchStore.subscribe((s, prev) => {
    if (s.activeThreadId !== prev.activeThreadId) {
      if (s.activeThreadId) localStorage.setItem(ACTIVE_THREAD_KEY, s.activeThreadId);
      else localStorage.removeItem(ACTIVE_THREAD_KEY);
    }
  });
  void (async () => {
    const s = useWorkbenchStore.getState();
    try {
      const [app, workspace] = await Promise.all([call('app.info', {}), call('workspace.current', {})]);
      useWorkbenchStore.setState({ app, workspace });
      const trust = await call('trust.status', { workspace: workspace.path }).catch(() => null);
      if (trust && !trust.trusted && trust.items.length > 0 && localStorage.getItem(`wb.trustAsked:${trust.workspace}`) !== '1') {
        localStorage.setItem(`wb.trustAsked:${trust.workspace}`, '1');
        s.setTrustPrompt(trust);
      }
    } catch (err) {
      s.setBanner(`Could not reach the workbench: ${errorMessage(err)}`);
    }
    await Promise.all([s.refreshThreads(), s.loadSettings()]);
    const last = localStorage.getItem(ACTIVE_THREAD_KEY);
    if (last && useWorkbenchStore.getState().threads.some((t) => t.thread_id === last)) await s.openThread(last);
  })().finally(() => useWorkbenchStore.setState({ ready: true }));
  return () => {
    stopFeed();
    offCommands();
    unsubscribe();
  };
}

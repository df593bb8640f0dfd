/**
 * The trace in its own window: the same hardened page at `#trace=<threadId>`, which renders only
 * the full trace view. One window at most; asking again points it at the new thread and focuses it.
 * Its main frame is trusted for IPC like the main window's, and it gets the same event stream.
 */
import type { BrowserWindow, BrowserWindowConstructorOptions, WebContents } from 'electron';

/** What the opener needs from main.ts (kept injectable: no electron import here beyond types). */
export interface TraceWindowDeps {
  create(options: BrowserWindowConstructorOptions): BrowserWindow;
  /** The page's URL without a hash. */
  pageUrl: string;
  webPreferences: BrowserWindowConstructorOptions['webPreferences'];
  /** Hardens the window and wires IPC trust and events; returns the cleanup run when it closes. */
  attach(win: BrowserWindow): () => void;
}

/** The hash the renderer reads to show only the trace of one thread. */
export function traceHash(threadId: string): string {
  return `#trace=${encodeURIComponent(threadId)}`;
}

/** Contract: returns the opener; the window it makes is closed with the app like any other. */
export function createTraceWindowOpener(
  deps: TraceWindowDeps,
): (threadId: string) => Promise<void> {
  let win: BrowserWindow | null = null;
  return async (threadId) => {
    const url = `${deps.pageUrl}${traceHash(threadId)}`;
    if (win && !win.isDestroyed()) {
      await win.loadURL(url);
      win.focus();
      return;
    }
    const w = deps.create({
      width: 1200,
      height: 800,
      minWidth: 720,
      minHeight: 480,
      show: false,
      title: 'Agent Workbench — Trace',
      webPreferences: deps.webPreferences,
    });
    win = w;
    const detach = deps.attach(w);
    w.once('ready-to-show', () => w.show());
    w.on('closed', () => {
      detach();
      win = null;
    });
    await w.loadURL(url);
  };
}

/** The web contents allowed to call IPC: the windows the app made, nothing else. */
export function createTrustedContents() {
  const set = new Set<WebContents>();
  return {
    add: (wc: WebContents) => void set.add(wc),
    remove: (wc: WebContents) => void set.delete(wc),
    has: (wc: WebContents) => set.has(wc),
  };
}

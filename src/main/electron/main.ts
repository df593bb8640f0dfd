/**
 * The Electron main process: one hardened window over the shared core (docs/architecture.md). Thin on
 * purpose — the logic lives in plain modules (handlers, sender-guard, key-store, window-state).
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, safeStorage, session, shell } from 'electron';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createWorkbench } from '../api/workbench.ts';
import { createHandlers, forwardEvents } from '../api/handlers.ts';
import type { Workbench } from '../api/types.ts';
import { resolveHome } from '../store/paths.ts';
import { handleAppScheme, registerAppScheme } from './app-protocol.ts';
import { createEventSender, registerIpc } from './ipc-adapter.ts';
import { createSafeStorageSecrets } from './key-store.ts';
import { menuTemplate } from './menu.ts';
import { devRendererUrl } from './renderer-url.ts';
import { hardenSession, hardenWindow } from './security.ts';
import { APP_ORIGIN, isTrustedSender } from './sender-guard.ts';
import { loadWindowState, saveWindowState } from './window-state.ts';
import { createTraceWindowOpener, createTrustedContents } from './trace-window.ts';
import { errorMessage } from '../errors.ts';

const devUrl = devRendererUrl(process.env, app.isPackaged);
const origins = devUrl ? [APP_ORIGIN, new URL(devUrl).origin] : [APP_ORIGIN];
let win: BrowserWindow | null = null;
let workbench: Workbench | null = null;

registerAppScheme(protocol);
const primary = app.requestSingleInstanceLock();
if (!primary) app.quit();
app.on('second-instance', () => {
  if (!win) return;
  if (win.isMinimized()) win.restore();
  win.focus();
});

async function start(): Promise<void> {
  const home = resolveHome(process.env);
  const secrets = createSafeStorageSecrets(safeStorage, home, process.env.OPENAI_API_KEY || undefined);
  // Read once and forgotten: nothing this process starts later inherits the key (docs/security.md).
  delete process.env.OPENAI_API_KEY;
  if (secrets.warning?.()) console.warn(`workbench: ${secrets.warning()}`);
  const recent = await import('../store/index.ts').then((m) => m.createSettingsStore(home).get().recent_workspaces[0]).catch(() => undefined);
  workbench = await createWorkbench({ home, workspace: recent ?? homedir(), apiKey: secrets.get(), followFeed: true }).catch(() => createWorkbench({ home, workspace: homedir(), apiKey: secrets.get(), followFeed: true }));

  handleAppScheme(protocol, join(import.meta.dirname, '../renderer'));
  hardenSession(session.defaultSession, devUrl);
  const state = loadWindowState(home);
  const webPreferences = {
    preload: join(import.meta.dirname, '../preload/preload.cjs'),
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webSecurity: true,
    webviewTag: false,
    spellcheck: true,
  };
  win = new BrowserWindow({
    ...state,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Agent Workbench',
    webPreferences,
  });
  if (state.maximized) win.maximize();
  hardenWindow(win, origins, shell, dialog);
  const current = win;
  const wb = workbench;
  const trusted = createTrustedContents();
  trusted.add(current.webContents);
  const pageUrl = devUrl ?? `${APP_ORIGIN}/index.html`;
  const openTraceWindow = createTraceWindowOpener({
    create: (options) => new BrowserWindow(options),
    pageUrl,
    webPreferences,
    attach: (w) => {
      hardenWindow(w, origins, shell, dialog);
      const contents = w.webContents;
      trusted.add(contents);
      const stop = forwardEvents(wb, createEventSender(contents));
      return () => {
        stop();
        trusted.remove(contents);
      };
    },
  });
  const handlers = createHandlers({
    workbench,
    mode: 'electron',
    version: app.getVersion(),
    secrets,
    platform: process.platform,
    pickFolder: async () => {
      const r = await dialog.showOpenDialog(current, { properties: ['openDirectory', 'createDirectory'] });
      return r.canceled ? undefined : r.filePaths[0];
    },
    openTraceWindow,
  });
  // Only the main frames of the windows this process made, at the app origin, may call IPC.
  const unregister = registerIpc(
    ipcMain,
    handlers,
    (event) =>
      trusted.has(event.sender) &&
      isTrustedSender(event.senderFrame, event.sender.mainFrame, origins),
  );
  const send = createEventSender(win.webContents);
  const unsubscribe = forwardEvents(workbench, send);
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(process.platform === 'darwin', (action) => send('app.command', { action }))));

  win.once('ready-to-show', () => current.show());
  win.on('close', () => saveWindowState(home, { ...current.getNormalBounds(), maximized: current.isMaximized() }));
  win.on('closed', () => {
    unsubscribe();
    unregister();
    win = null;
  });
  await win.loadURL(pageUrl);
}

if (primary) {
  app
    .whenReady()
    .then(start)
    .catch((err: unknown) => {
      dialog.showErrorBox('Agent Workbench could not start', errorMessage(err));
      app.quit();
    });
}
app.on('window-all-closed', () => app.quit());
app.on('will-quit', (event) => {
  if (!workbench) return;
  event.preventDefault();
  const wb = workbench;
  workbench = null;
  void wb.close().finally(() => app.quit());
});

/**
 * Window hardening: strict CSP on every response, navigation and new windows denied, external links
 * only https: after a confirm dialog, every permission request denied.
 */
import type { BrowserWindow, Session, Shell, Dialog } from 'electron';
import { contentSecurityPolicy } from '../server/server.ts';
import { isAllowedExternal, isAppUrl } from './sender-guard.ts';

/** Applies the CSP header and denies permissions on `session`. */
export function hardenSession(session: Session, devOrigin?: string): void {
  // The dev server (electron-vite dev only) needs React refresh's inline preamble and its HMR socket.
  const base = contentSecurityPolicy(devOrigin ? devOrigin.replace(/^http/, 'ws') : '');
  const csp = devOrigin ? base.replace("script-src 'self'", `script-src 'self' 'unsafe-inline' ${devOrigin}`) : base;
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/** Denies navigation away from the app and new windows; https links go to the browser after a confirm. */
export function hardenWindow(win: BrowserWindow, origins: readonly string[], shell: Shell, dialog: Dialog): void {
  const askAndOpen = async (url: string) => {
    if (!isAllowedExternal(url)) return;
    const { response } = await dialog.showMessageBox(win, {
      type: 'question',
      buttons: ['Open in browser', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
      message: 'Open this link in your browser?',
      detail: url,
    });
    if (response === 0) await shell.openExternal(url);
  };
  win.webContents.setWindowOpenHandler(({ url }) => {
    void askAndOpen(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, origins)) {
      event.preventDefault();
      void askAndOpen(url);
    }
  });
  win.webContents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, origins)) event.preventDefault();
  });
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
}

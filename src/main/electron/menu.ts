/** The application menu with the usual shortcuts; app actions are forwarded to the renderer. */
import type { MenuItemConstructorOptions } from 'electron';
import type { AppCommand } from '../../shared/ipc/contract.ts';

/** Builds the menu template; `command` sends an action to the renderer. */
export function menuTemplate(isMac: boolean, command: (action: AppCommand['action']) => void): MenuItemConstructorOptions[] {
  return [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'New Thread', accelerator: 'CmdOrCtrl+N', click: () => command('new_thread') },
        { label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: () => command('open_folder') },
        { label: 'Search Threads', accelerator: 'CmdOrCtrl+K', click: () => command('search_threads') },
        { type: 'separator' },
        { label: 'Settings', accelerator: 'CmdOrCtrl+,', click: () => command('open_settings') },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }],
    },
    { role: 'windowMenu' },
  ];
}

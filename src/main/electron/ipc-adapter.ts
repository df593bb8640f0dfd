/**
 * The thin Electron IPC adapter: one `ipcMain.handle` per contract channel; every message's sender
 * frame is checked before the payload is parsed by the channel's schema in `dispatch()`.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { EVENT_CHANNELS, INVOKE_CHANNELS, IPC_PREFIX } from '../../shared/ipc/channels.ts';
import type { EventChannel, EventPayloads } from '../../shared/ipc/contract.ts';
import { fail } from '../../shared/ipc/result.ts';
import { dispatch, type InvokeHandlers } from '../api/handlers.ts';

/** Decides whether an IPC event comes from the trusted main frame. */
export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

/** Registers every channel; returns the unregister function. */
export function registerIpc(ipcMain: IpcMain, handlers: InvokeHandlers, isTrusted: SenderCheck): () => void {
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(IPC_PREFIX + channel, async (event, args: unknown) => {
      if (!isTrusted(event)) return fail('forbidden', 'IPC from an untrusted frame');
      return dispatch(handlers, channel, args);
    });
  }
  return () => {
    for (const channel of INVOKE_CHANNELS) ipcMain.removeHandler(IPC_PREFIX + channel);
  };
}

/** A typed sender of contract events to one window (dropped once it is destroyed). */
export function createEventSender(webContents: WebContents) {
  const allowed = new Set<string>(EVENT_CHANNELS);
  return <E extends EventChannel>(channel: E, payload: EventPayloads[E]): void => {
    if (!allowed.has(channel) || webContents.isDestroyed()) return;
    webContents.send(IPC_PREFIX + channel, payload);
  };
}

/**
 * The sandboxed preload: exposes exactly one object, `window.workbench`, with `invoke(channel, args)`
 * and `on(event, cb)` for the contract's channels only. Built as CommonJS.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_PREFIX, isEventChannel, isInvokeChannel } from '../../shared/ipc/channels.ts';

const bridge = {
  invoke(channel: unknown, args: unknown): Promise<unknown> {
    if (!isInvokeChannel(channel)) return Promise.resolve({ ok: false, error: { code: 'unknown_channel', message: 'unknown channel' } });
    return ipcRenderer.invoke(IPC_PREFIX + channel, args);
  },
  on(channel: unknown, listener: unknown): () => void {
    if (!isEventChannel(channel) || typeof listener !== 'function') return () => {};
    const wrapped = (_e: IpcRendererEvent, payload: unknown) => (listener as (p: unknown) => void)(payload);
    ipcRenderer.on(IPC_PREFIX + channel, wrapped);
    return () => void ipcRenderer.removeListener(IPC_PREFIX + channel, wrapped);
  },
};

contextBridge.exposeInMainWorld('workbench', Object.freeze(bridge));

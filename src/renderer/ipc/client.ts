/**
 * The one transport-agnostic client: the preload's `window.workbench` bridge in Electron, else the
 * `workbench serve` socket. `call()` unwraps results and throws `CallError` for `{ok:false}`.
 */
import type { InvokeArgs, InvokeChannel, InvokeResult, IpcError, WorkbenchBridge } from '../../shared/ipc/contract.ts';
import { createSocketBridge, type ConnectionState } from './socket-bridge.ts';

declare global {
  interface Window {
    workbench?: WorkbenchBridge;
  }
}

/** A failed call, carrying the contract's error code. */
export class CallError extends Error {
  readonly code: IpcError['code'];
  constructor(error: IpcError) {
    super(error.message);
    this.name = 'CallError';
    this.code = error.code;
  }
}

const stateListeners = new Set<(s: ConnectionState, failures: number) => void>();
let bridge: WorkbenchBridge | undefined;

/** The bridge for this page (created on first use). */
export function getBridge(): WorkbenchBridge {
  if (bridge) return bridge;
  if (window.workbench) return (bridge = window.workbench);
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  bridge = createSocketBridge(`${scheme}://${location.host}/ws`, (s, n) => stateListeners.forEach((l) => l(s, n)));
  return bridge;
}

/** Hears socket connection changes and failed attempts in a row (never fires in Electron). */
export function onConnectionState(listener: (s: ConnectionState, failures: number) => void): () => void {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

/** Calls a channel and returns its value. Contract: rejects with CallError on `{ok:false}`. */
export async function call<C extends InvokeChannel>(channel: C, args: InvokeArgs<C>): Promise<InvokeResult<C>> {
  const r = await getBridge().invoke(channel, args);
  if (!r.ok) throw new CallError(r.error);
  return r.value;
}

/**
 * The WorkbenchBridge over the `workbench serve` WebSocket: request ids, reconnect with backoff,
 * calls queued while the socket is down. The token travels in the HttpOnly cookie the server set.
 */
import type { EventChannel, EventPayloads, InvokeArgs, InvokeChannel, InvokeResult, IpcResult, WorkbenchBridge } from '../../shared/ipc/contract.ts';

export type ConnectionState = 'connecting' | 'open' | 'closed';

interface Pending {
  resolve: (r: IpcResult<unknown>) => void;
  frame: string;
}

/** Creates the socket bridge; `onState` hears connection changes and failed attempts in a row (a reconnect means: resync). */
export function createSocketBridge(url: string, onState: (s: ConnectionState, failures: number) => void = () => {}): WorkbenchBridge {
  let ws: WebSocket | undefined;
  let nextId = 1;
  let delay = 250;
  let failures = 0;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(p: unknown) => void>>();

  const connect = () => {
    onState('connecting', failures);
    const socket = new WebSocket(url);
    ws = socket;
    socket.onopen = () => {
      delay = 250;
      failures = 0;
      onState('open', 0);
      for (const p of pending.values()) socket.send(p.frame);
    };
    socket.onmessage = (m) => {
      let msg: { id?: number; result?: IpcResult<unknown>; event?: string; payload?: unknown };
      try {
        msg = JSON.parse(String(m.data)) as typeof msg;
      } catch {
        return;
      }
      if (typeof msg.id === 'number') {
        const p = pending.get(msg.id);
        pending.delete(msg.id);
        p?.resolve(msg.result ?? { ok: false, error: { code: 'internal', message: 'empty answer' } });
      } else if (msg.event) {
        listeners.get(msg.event)?.forEach((l) => l(msg.payload));
      }
    };
    socket.onclose = () => {
      failures++;
      onState('closed', failures);
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 5000);
    };
  };
  connect();

  return {
    invoke<C extends InvokeChannel>(channel: C, args: InvokeArgs<C>): Promise<IpcResult<InvokeResult<C>>> {
      const id = nextId++;
      const frame = JSON.stringify({ id, channel, args });
      return new Promise((resolve) => {
        pending.set(id, { resolve: resolve as (r: IpcResult<unknown>) => void, frame });
        if (ws?.readyState === WebSocket.OPEN) ws.send(frame);
      });
    },
    on<E extends EventChannel>(channel: E, listener: (payload: EventPayloads[E]) => void): () => void {
      const set = listeners.get(channel) ?? new Set();
      listeners.set(channel, set);
      const l = listener as (p: unknown) => void;
      set.add(l);
      return () => set.delete(l);
    },
  };
}

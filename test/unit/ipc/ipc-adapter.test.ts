import { beforeEach, describe, expect, it, vi } from 'vitest';

// Electron cannot load here (no binary): the adapter's only runtime import of it is mocked.
vi.mock('electron', () => ({ ipcMain: {}, app: {} }));

import { registerIpc, createEventSender } from '../../../src/main/electron/ipc-adapter.ts';
import { isAllowedExternal, isAppUrl, isTrustedSender, APP_ORIGIN } from '../../../src/main/electron/sender-guard.ts';
import { createHandlers } from '../../../src/main/api/handlers.ts';
import { INVOKE_CHANNELS, IPC_PREFIX } from '../../../src/shared/ipc/channels.ts';
import { createStubWorkbench } from '../server/stub-workbench.ts';

type Handler = (event: unknown, args: unknown) => Promise<unknown>;

function fakeIpcMain() {
  const handlers = new Map<string, Handler>();
  return {
    handlers,
    handle: vi.fn((channel: string, fn: Handler) => void handlers.set(channel, fn)),
    removeHandler: vi.fn((channel: string) => void handlers.delete(channel)),
  };
}

describe('Electron IPC adapter', () => {
  const origins = [APP_ORIGIN];
  const mainFrame = { url: `${APP_ORIGIN}/index.html`, parent: null };
  let ipc: ReturnType<typeof fakeIpcMain>;
  let wb: ReturnType<typeof createStubWorkbench>;
  let unregister: () => void;

  beforeEach(() => {
    ipc = fakeIpcMain();
    wb = createStubWorkbench();
    const handlers = createHandlers({ workbench: wb, mode: 'electron', version: '1', secrets: { get: () => undefined, set: async () => {}, storage: () => 'none' } });
    unregister = registerIpc(ipc as never, handlers, (e) => isTrustedSender((e as { senderFrame: typeof mainFrame }).senderFrame, mainFrame, origins));
  });

  const invoke = (channel: string, args: unknown, frame: unknown = mainFrame) => {
    const h = ipc.handlers.get(IPC_PREFIX + channel);
    if (!h) return Promise.resolve('no handler');
    return h({ senderFrame: frame }, args);
  };

  it('registers exactly the contract channels and unregisters them', () => {
    expect([...ipc.handlers.keys()].sort()).toEqual(INVOKE_CHANNELS.map((c) => IPC_PREFIX + c).sort());
    unregister();
    expect(ipc.handlers.size).toBe(0);
  });

  it('answers a valid call from the main frame', async () => {
    expect(await invoke('chat.send', { text: 'hi' })).toMatchObject({ ok: true, value: { threadId: 't1' } });
    expect(wb.sent).toHaveLength(1);
  });

  it('rejects bad payloads before the handler runs', async () => {
    for (const args of [42, null, 'x', [], { text: 1 }, { text: 'a', extra: true }, { text: 'a'.repeat(300_000) }]) {
      expect(await invoke('chat.send', args)).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    }
    const deep: Record<string, unknown> = {};
    let cur = deep;
    for (let i = 0; i < 10_000; i++) cur = (cur.a = {}) as Record<string, unknown>;
    expect(await invoke('chat.send', deep)).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect(await invoke('settings.update', JSON.parse('{"patch":{"__proto__":{"polluted":true}}}'))).toMatchObject({ ok: false });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(wb.sent).toHaveLength(0);
  });

  it('has no handler for unknown channels', async () => {
    expect(await invoke('fs.readAnything', {})).toBe('no handler');
  });

  it('refuses other frames, iframes and other origins', async () => {
    const foreign = [
      { url: 'https://evil.example/', parent: null },
      { url: `${APP_ORIGIN}/index.html`, parent: mainFrame },
      { url: 'data:text/html,hi', parent: null },
      null,
    ];
    for (const frame of foreign) {
      expect(await invoke('chat.send', { text: 'hi' }, frame)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(wb.sent).toHaveLength(0);
  });

  it('sends only contract events to a live window', () => {
    const sent: unknown[] = [];
    const wc = { isDestroyed: () => false, send: (...a: unknown[]) => sent.push(a) };
    const send = createEventSender(wc as never);
    const done = { event: 'done', run_id: 'r1', thread_id: 't1', data: { stop_reason: 'completed', iterations: 1 } } as const;
    send('agent.event', { seq: 1, event: done });
    (send as (c: string, p: unknown) => void)('evil.event', {});
    expect(sent).toEqual([[`${IPC_PREFIX}agent.event`, { seq: 1, event: done }]]);
  });
});

describe('sender guard and external links', () => {
  it('matches the app origin exactly', () => {
    expect(isAppUrl('app://workbench/index.html', [APP_ORIGIN])).toBe(true);
    expect(isAppUrl('app://workbench.evil/index.html', [APP_ORIGIN])).toBe(false);
    expect(isAppUrl('file:///etc/passwd', [APP_ORIGIN])).toBe(false);
    expect(isAppUrl('not a url', [APP_ORIGIN])).toBe(false);
  });

  it('lets only https links out', () => {
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'ms-msdt:foo', 'http://x.example', 'nope']) {
      expect(isAllowedExternal(bad)).toBe(false);
    }
    expect(isAllowedExternal('https://ok.example')).toBe(true);
  });
});

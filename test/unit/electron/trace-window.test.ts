import { describe, expect, it } from 'vitest';
import type { BrowserWindow } from 'electron';
import {
  createTraceWindowOpener,
  createTrustedContents,
  traceHash,
} from '../../../src/main/electron/trace-window.ts';

/** A stand-in BrowserWindow recording what the opener did with it. */
function fakeWindow() {
  const handlers = new Map<string, () => void>();
  const w = {
    urls: [] as string[],
    focused: 0,
    destroyed: false,
    options: undefined as unknown,
    loadURL: async (u: string) => void w.urls.push(u),
    focus: () => void w.focused++,
    isDestroyed: () => w.destroyed,
    show: () => undefined,
    once: (e: string, f: () => void) => void handlers.set(e, f),
    on: (e: string, f: () => void) => void handlers.set(e, f),
    close() {
      w.destroyed = true;
      handlers.get('closed')?.();
    },
  };
  return w;
}

describe('trace window', () => {
  it('opens one hardened window on the page with the thread in the hash, and reuses it', async () => {
    const made: ReturnType<typeof fakeWindow>[] = [];
    let attached = 0;
    let detached = 0;
    const open = createTraceWindowOpener({
      create: (options) => {
        const w = fakeWindow();
        w.options = options;
        made.push(w);
        return w as unknown as BrowserWindow;
      },
      pageUrl: 'app://workbench/index.html',
      webPreferences: { sandbox: true, contextIsolation: true },
      attach: () => {
        attached++;
        return () => void detached++;
      },
    });
    await open('thread-1');
    expect(made).toHaveLength(1);
    expect(made[0]!.urls).toEqual(['app://workbench/index.html#trace=thread-1']);
    expect(made[0]!.options).toMatchObject({
      webPreferences: { sandbox: true, contextIsolation: true },
    });
    await open('thread 2');
    expect(made).toHaveLength(1);
    expect(made[0]!.urls.at(-1)).toBe(`app://workbench/index.html${traceHash('thread 2')}`);
    expect(made[0]!.focused).toBe(1);
    made[0]!.close();
    expect(detached).toBe(1);
    await open('thread-3');
    expect(made).toHaveLength(2);
    expect(attached).toBe(2);
  });

  it('trusts only the contents it was given, until removed', () => {
    const t = createTrustedContents();
    const a = {} as Electron.WebContents;
    const b = {} as Electron.WebContents;
    t.add(a);
    expect(t.has(a)).toBe(true);
    expect(t.has(b)).toBe(false);
    t.remove(a);
    expect(t.has(a)).toBe(false);
  });
});

import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSafeStorageSecrets } from '../../../src/main/electron/key-store.ts';
import { loadWindowState, saveWindowState } from '../../../src/main/electron/window-state.ts';
import { menuTemplate } from '../../../src/main/electron/menu.ts';

function fakeSafeStorage(backend: string, available = true) {
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString: (s: string) => Buffer.from(`enc:${Buffer.from(s).toString('base64')}`),
    decryptString: (b: Buffer) => Buffer.from(b.toString().slice(4), 'base64').toString(),
  } as never;
}

describe('safeStorage key store', () => {
  it('stores the key encrypted with mode 0600 and reads it back', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-key-'));
    const a = createSafeStorageSecrets(fakeSafeStorage('gnome_libsecret'), home);
    await a.set('sk-canary-42');
    const raw = readFileSync(join(home, 'key.enc'), 'utf8');
    expect(raw).not.toContain('sk-canary-42');
    expect(statSync(join(home, 'key.enc')).mode & 0o777).toBe(0o600);
    const b = createSafeStorageSecrets(fakeSafeStorage('gnome_libsecret'), home);
    expect(b.get()).toBe('sk-canary-42');
    expect(b.storage()).toBe('safe-storage');
    await b.set(null);
    expect(createSafeStorageSecrets(fakeSafeStorage('gnome_libsecret'), home).get()).toBeUndefined();
  });

  it('warns when Linux falls back to basic_text and refuses to store without a keychain', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-key-'));
    const s = createSafeStorageSecrets(fakeSafeStorage('basic_text'), home);
    if (process.platform === 'linux') expect(s.warning?.()).toMatch(/only obfuscated/);
    const none = createSafeStorageSecrets(fakeSafeStorage('basic_text', false), home, 'sk-env');
    await expect(none.set('sk-x')).rejects.toThrow(/keychain is not available/);
    expect(none.get()).toBe('sk-env');
    expect(none.storage()).toBe('env');
  });
});

describe('window state', () => {
  it('round-trips and falls back on bad files', () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-win-'));
    expect(loadWindowState(home)).toEqual({ width: 1360, height: 860, maximized: false });
    saveWindowState(home, { x: 10, y: 20, width: 1000, height: 700, maximized: true });
    expect(loadWindowState(home)).toEqual({ x: 10, y: 20, width: 1000, height: 700, maximized: true });
    writeFileSync(join(home, 'window-state.json'), '{"width": 5, "height": -1}');
    expect(loadWindowState(home).width).toBe(1360);
  });
});

describe('menu', () => {
  it('has the usual shortcuts and forwards app actions', () => {
    const actions: string[] = [];
    const template = menuTemplate(false, (a) => actions.push(a));
    const file = template.find((m) => m.label === 'File')!;
    const items = file.submenu as Array<{ label?: string; accelerator?: string; click?: () => void }>;
    expect(items.find((i) => i.label === 'New Thread')?.accelerator).toBe('CmdOrCtrl+N');
    items.find((i) => i.label === 'Search Threads')!.click!();
    expect(actions).toEqual(['search_threads']);
  });
});

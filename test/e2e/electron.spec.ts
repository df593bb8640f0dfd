/**
 * Window security of the real Electron app, through Playwright's `_electron`. Runs only where an
 * Electron binary exists (`node_modules/electron/path.txt`, written by its lazy download); elsewhere it
 * skips with one line. Never `require('electron')` to probe: that starts a download.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { test, expect, _electron as electron } from '@playwright/test';

const require = createRequire(import.meta.url);
const electronDir = dirname(require.resolve('electron/package.json'));
const hasBinary = existsSync(join(electronDir, 'path.txt'));
const root = resolve(import.meta.dirname, '../..');
if (!hasBinary) console.log('electron.spec: skipped — no Electron binary here (node_modules/electron/path.txt missing)');

test.describe('Electron window security', () => {
  test.skip(!hasBinary, 'no Electron binary on this machine (node_modules/electron/path.txt missing; it cannot be downloaded here)');

  test('sandboxed renderer: no Node, CSP set, only the contract bridge exposed', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-electron-'));
    const app = await electron.launch({ args: [join(root, 'out/main/index.js')], env: { ...process.env, WORKBENCH_HOME: home, OPENAI_API_KEY: '' } });
    try {
      const page = await app.firstWindow();
      await expect(page.getByTestId('app')).toBeVisible();
      expect(await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
      expect(await page.evaluate(() => typeof (window as unknown as { process?: unknown }).process)).toBe('undefined');
      expect(await page.evaluate(() => Object.keys((window as unknown as { workbench: object }).workbench).sort())).toEqual(['invoke', 'on']);
      const unknown = await page.evaluate(() => (window as unknown as { workbench: { invoke(c: string, a: unknown): Promise<unknown> } }).workbench.invoke('fs.read', {}));
      expect(unknown).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
      const prefs = await app.evaluate(({ BrowserWindow }) => {
        const w = BrowserWindow.getAllWindows()[0]!;
        const wc = w.webContents as unknown as { getLastWebPreferences?: () => Record<string, unknown> };
        const p = wc.getLastWebPreferences?.() ?? {};
        return { contextIsolation: p.contextIsolation, sandbox: p.sandbox, nodeIntegration: p.nodeIntegration, webSecurity: p.webSecurity };
      });
      expect(prefs).toEqual({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
      const inline = await page.evaluate(
        () =>
          new Promise<boolean>((r) => {
            const s = document.createElement('script');
            s.textContent = 'window.__inline = 1';
            document.body.append(s);
            setTimeout(() => r((window as unknown as { __inline?: number }).__inline === 1), 100);
          }),
      );
      expect(inline).toBe(false);
      const windowsBefore = app.windows().length;
      await page.evaluate(() => window.open('https://example.com'));
      await page.waitForTimeout(300);
      expect(app.windows().length).toBe(windowsBefore);
    } finally {
      await app.close();
    }
  });
});

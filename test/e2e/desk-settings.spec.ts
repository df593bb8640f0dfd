/** Settings that tell the truth, hook scripts edited in the app, and unsaved edits never dropped silently. */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, e2eEnv } from './fixtures.ts';
import { HooksPage } from './pages/hooks-page.ts';
import { setMonacoText } from './pages/memory-monaco.ts';

const HOOK = 'desk-edit-probe';
const SCRIPT = `#!/bin/sh\nif [ "$1" = hook ]; then echo after_tool_call; exit 0; fi\ncat >/dev/null\n`;
const hookPath = () => join(e2eEnv('WB_HOME'), 'hooks', HOOK);

test.beforeEach(() => {
  mkdirSync(join(e2eEnv('WB_HOME'), 'hooks'), { recursive: true });
  writeFileSync(hookPath(), SCRIPT);
  chmodSync(hookPath(), 0o755);
});
test.afterEach(() => rmSync(hookPath(), { force: true }));

for (const size of [
  { width: 1024, height: 700 },
  { width: 1400, height: 900 },
]) {
  test(`at ${size.width}×${size.height} a hook script is edited and saved in Monaco; closing with edits asks first`, async ({
    app,
  }) => {
    await app.setViewportSize(size);
    const hooks = new HooksPage(app);
    await hooks.open();
    await hooks.row(`executable:user:${HOOK}`).getByTestId('hook-edit-script').click();
    const editor = app.getByTestId('hook-script-editor');
    await expect(editor).toContainText(HOOK);
    const edited = `${SCRIPT}echo '{}'\n`;
    await setMonacoText(app, editor, edited);
    await expect(app.getByTestId('hook-script-dirty')).toBeVisible();
    await app.keyboard.press('ControlOrMeta+S');
    await expect(app.getByTestId('hook-script-dirty')).toHaveCount(0);
    expect(readFileSync(hookPath(), 'utf8')).toBe(edited);

    await setMonacoText(app, editor, `${edited}# more\n`);
    app.once('dialog', (d) => void d.dismiss());
    await app.getByTestId('hook-script-close').click();
    await expect(editor).toBeVisible();
    app.once('dialog', (d) => void d.accept());
    await app.getByTestId('hook-script-close').click();
    await expect(editor).toHaveCount(0);
    expect(readFileSync(hookPath(), 'utf8')).toBe(edited);
  });
}

test('leaving the page with unsaved memory edits asks first', async ({ app }) => {
  await app.getByTestId('tab-memory').click();
  const pane = app.getByTestId('memory-pane-workspace');
  await setMonacoText(app, pane, '# unsaved note\n');
  await expect(app.getByTestId('memory-dirty')).toBeVisible();
  const dialog = app.waitForEvent('dialog');
  await app.close({ runBeforeUnload: true });
  const d = await dialog;
  expect(d.type()).toBe('beforeunload');
  await d.accept();
});

test('Test connection fails when the chosen model is not on the endpoint, and a preset switch drops the old model', async ({
  settings,
}) => {
  await settings.open();
  await settings.model.fill('no-such-model');
  await settings.testButton.click();
  await expect(settings.result).toHaveClass(/warning/);
  await expect(settings.result).toContainText('"no-such-model" is not on its list');
  await settings.model.fill('fake-model');
  await settings.testButton.click();
  await expect(settings.result).toHaveClass(/success/);
  await settings.preset.selectOption('ollama');
  await expect(settings.model).toHaveValue('');
  await expect(settings.page.getByTestId('models-note')).toContainText('Type the model name');
});

test('the theme applies at once, without Save, and stays after a reload', async ({
  settings,
  app,
}) => {
  await settings.open();
  await settings.page.getByTestId('settings-theme').selectOption('dark');
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await app.reload();
  await expect(app.getByTestId('app')).toHaveAttribute('data-ready', 'true');
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await settings.open();
  await settings.page.getByTestId('settings-theme').selectOption('light');
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'light');
  // Back to the default, which other specs rely on.
  await app.emulateMedia({ colorScheme: 'dark' });
  await settings.page.getByTestId('settings-theme').selectOption('system');
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
});

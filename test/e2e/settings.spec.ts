import { test, expect, e2eEnv } from './fixtures.ts';

test('configure the endpoint, list models and test the connection', async ({ settings }) => {
  await settings.open();
  await expect(settings.baseUrl).toHaveValue(e2eEnv('WB_FAKE_URL'));
  await settings.preset.selectOption('ollama');
  await expect(settings.baseUrl).toHaveValue('http://127.0.0.1:11434/v1');
  await settings.preset.selectOption('custom');
  await settings.baseUrl.fill('http://127.0.0.1:9/v1');
  await settings.testButton.click();
  await expect(settings.result).toHaveClass(/warning/);
  await settings.baseUrl.fill(e2eEnv('WB_FAKE_URL'));
  await settings.testButton.click();
  await expect(settings.result).toHaveClass(/success/);
  await settings.page.getByTestId('settings-load-models').click();
  await expect(settings.page.getByTestId('settings-model-select')).toBeVisible();
  await settings.page.getByTestId('settings-model-select').selectOption('fake-model');
  await settings.apiKey.fill('sk-e2e-canary-key');
  await settings.save.click();
  await expect(settings.page.getByTestId('settings-saved')).toHaveText('Saved.');
  await expect(settings.page.getByTestId('key-status')).toContainText('A key is configured');
  // The key never comes back to the page.
  expect(await settings.page.content()).not.toContain('sk-e2e-canary-key');
  await settings.page.getByRole('button', { name: 'Remove key' }).click();
  await expect(settings.page.getByTestId('key-status')).toContainText('No key configured');
});

test('theme switch applies to the page', async ({ settings }) => {
  await settings.open();
  await settings.page.getByTestId('settings-theme').selectOption('dark');
  await settings.save.click();
  await expect(settings.page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await settings.page.getByTestId('settings-theme').selectOption('light');
  await settings.save.click();
  await expect(settings.page.locator('html')).toHaveAttribute('data-theme', 'light');
});

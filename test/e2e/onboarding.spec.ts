import { createServer } from 'node:net';
import { test, expect } from '@playwright/test';
import { startStack, type Stack } from './stack.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai-server.ts';

// Each test gets a stack of its own: first start, OpenAI preset, no key anywhere.
let stack: Stack;
test.beforeEach(async () => {
  stack = await startStack({ provider: { preset: 'openai', base_url: 'https://api.openai.com/v1', model: 'gpt-4o-mini' } });
});
test.afterEach(async () => {
  await stack?.stop();
});

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

test('first start without a provider finds a local Ollama and uses it', async ({ page }) => {
  test.skip(!(await portFree(11434)), 'port 11434 is taken on this machine (a real Ollama?)');
  const ollama: FakeOpenAi = await startFakeOpenAi({ port: 11434, models: ['llama3.2', 'qwen2.5-coder'] });
  try {
    await page.goto(stack.url);
    const onboarding = page.getByTestId('onboarding');
    await expect(onboarding).toBeVisible();
    await onboarding.getByRole('button', { name: /Use Ollama \(2 models\)/ }).click();
    await expect(onboarding).toHaveCount(0);
    await page.getByTestId('tab-settings').click();
    await expect(page.getByTestId('settings-preset')).toHaveValue('ollama');
    await expect(page.getByTestId('settings-base-url')).toHaveValue('http://127.0.0.1:11434/v1');
  } finally {
    await ollama.close();
  }
});

test('first start asks for a key when nothing is listening, and never shows it again', async ({ page }) => {
  await page.goto(stack.url);
  const onboarding = page.getByTestId('onboarding');
  await expect(onboarding).toBeVisible();
  await expect(onboarding).toContainText(/No local model server found|Found a model server/);
  await onboarding.getByLabel('OpenAI API key').fill('sk-onboarding-canary');
  await onboarding.getByRole('button', { name: 'Save key' }).click();
  await expect(onboarding).toHaveCount(0);
  await page.getByTestId('tab-settings').click();
  await expect(page.getByTestId('key-status')).toContainText('A key is configured');
  expect(await page.content()).not.toContain('sk-onboarding-canary');
});

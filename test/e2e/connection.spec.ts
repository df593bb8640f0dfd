import { test, expect } from '@playwright/test';
import { startStack } from './stack.ts';

test('when the server goes away the page says so, and what to do', async ({ page }) => {
  const stack = await startStack();
  try {
    await page.goto(stack.url);
    await expect(page.getByTestId('app')).toBeVisible();
    await expect(page.getByTestId('workspace-path')).toHaveText('workspace');
  } finally {
    await stack.stop();
  }
  await expect(page.getByTestId('connection-lost')).toBeVisible();
  await expect(page.getByTestId('connection-lost')).toContainText('open the new URL', { timeout: 15_000 });
});

import type { Locator, Page } from '@playwright/test';

/** Replaces the whole text of the Monaco editor inside `scope` by typing (as a user would). */
export async function setMonacoText(page: Page, scope: Locator, text: string): Promise<void> {
  const editor = scope.locator('.monaco-editor').first();
  await editor.waitFor();
  await editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  // insertText: no auto-indent or bracket completion rewriting what was typed.
  await page.keyboard.insertText(text);
}

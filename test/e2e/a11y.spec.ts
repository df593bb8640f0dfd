/** Accessibility: axe on every panel in both themes, approvals by keyboard, a favicon. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';

const TABS = ['todos', 'trace', 'memory', 'skills', 'hooks', 'settings'];

async function seriousViolations(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).exclude('.monaco-editor').analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
}

const RUNS = [
  { scheme: 'light', width: 1024, height: 700 },
  { scheme: 'dark', width: 1024, height: 700 },
  { scheme: 'dark', width: 1400, height: 900 },
] as const;

for (const { scheme, ...size } of RUNS) {
  {
    test(`no serious axe violations on any panel, ${scheme} theme, ${size.width}×${size.height}`, async ({
      app,
      chat,
      fake,
    }) => {
      test.setTimeout(180_000);
      await app.setViewportSize(size);
      await app.emulateMedia({ colorScheme: scheme });
      await expect(app.locator('html')).toHaveAttribute('data-theme', scheme);
      await fake.script([{ text: 'Here is `code` and a list:\n\n- one\n- two' }]);
      await chat.sendNew('Check the page');
      await expect(chat.assistant.last()).toContainText('one');
      await chat.waitIdle();
      const found: string[] = [];
      for (const tab of TABS) {
        await app.getByTestId(`tab-${tab}`).click();
        await app.waitForTimeout(150);
        found.push(...(await seriousViolations(app)).map((v) => `[${tab}] ${v}`));
      }
      expect(found).toEqual([]);
    });
  }
}

test('an approval takes focus and answers with keys', async ({ app, chat, fake }) => {
  await app.setViewportSize({ width: 1024, height: 700 });
  await fake.script([
    { toolCalls: [{ name: 'write_file', args: { path: 'keyed-a.txt', content: 'a' } }] },
    { toolCalls: [{ name: 'write_file', args: { path: 'keyed-b.txt', content: 'b' } }] },
    { text: 'Both done.' },
  ]);
  await chat.sendNew('Write two files');
  await expect(chat.approval).toBeFocused();
  await app.keyboard.press('n');
  // The next approval's preview is tall at this size: the messages keep room beside it, with the
  // call being approved in view (they were squeezed to nothing before).
  await expect(chat.approval).toContainText('keyed-b.txt');
  await expect(chat.toolCard('write_file').first()).toHaveAttribute('data-status', 'denied');
  await expect(chat.toolCard('write_file').last()).toBeInViewport();
  await expect(chat.approval).toBeFocused();
  await app.keyboard.press('y');
  await expect(chat.assistant.last()).toContainText('Both done.');
  await expect(chat.toolCard('write_file').last()).toHaveAttribute('data-status', 'done');
});

test('every panel is reachable by keyboard and the page has a favicon', async ({ app }) => {
  const icon = await app.locator('link[rel="icon"]').getAttribute('href');
  expect(icon).toMatch(/^data:image\/svg\+xml/);
  const tab = app.getByTestId('tab-todos');
  await tab.focus();
  for (const name of ['Trace', 'Changes', 'Memory', 'Skills', 'Agents', 'Hooks', 'Settings']) {
    await app.keyboard.press('Tab');
    await expect(app.getByRole('tab', { name })).toBeFocused();
    await app.keyboard.press('Enter');
    await expect(app.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
    await app.getByRole('tab', { name }).focus();
  }
});

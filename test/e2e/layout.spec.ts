/** The desk layout: panes never overlap the chat, hide/show stays reachable, sizes survive a reload. */
import type { Locator, Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1280, height: 800 },
  { width: 1400, height: 900 },
  { width: 1920, height: 1080 },
];
const TABS = ['todos', 'trace', 'memory', 'skills', 'hooks', 'settings'];

async function box(l: Locator) {
  const b = await l.boundingBox();
  if (!b) throw new Error('not visible');
  return b;
}

async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const size of SIZES) {
  test(`at ${size.width}×${size.height} the dock sits beside the chat on every tab`, async ({
    app,
    chat,
    fake,
  }) => {
    await app.setViewportSize(size);
    await fake.script([{ text: 'Hello from the model.' }]);
    await chat.sendNew('A message of mine');
    await expect(chat.assistant.last()).toContainText('Hello from the model.');
    for (const tab of TABS) {
      await app.getByTestId(`tab-${tab}`).click();
      const dock = await box(app.getByRole('complementary', { name: 'Panels' }));
      const composer = await box(chat.input);
      const mine = await box(chat.user.last());
      const send = await box(app.getByTestId('send-button'));
      for (const b of [composer, mine, send]) expect(b.x + b.width).toBeLessThanOrEqual(dock.x);
      const chatColumn = await box(app.getByRole('main', { name: 'Chat' }));
      expect(chatColumn.width).toBeGreaterThanOrEqual(370);
      await expect(app.getByTestId('dock-toggle')).toBeInViewport();
      await expectNoHorizontalOverflow(app);
    }
  });
}

test('at 1024×700 the dock hides and comes back without a reload', async ({ app }) => {
  await app.setViewportSize({ width: 1024, height: 700 });
  const dock = app.getByRole('complementary', { name: 'Panels' });
  await expect(dock).toBeVisible();
  await app.getByRole('button', { name: 'Hide panels' }).click();
  await expect(dock).toHaveCount(0);
  await app.setViewportSize({ width: 1400, height: 900 });
  await app.setViewportSize({ width: 1024, height: 700 });
  await app.getByRole('button', { name: 'Show panels' }).click();
  await expect(dock).toBeVisible();
  await app.getByRole('button', { name: 'Hide sidebar' }).click();
  await expect(app.getByTestId('new-thread')).toHaveCount(0);
  await app.getByRole('button', { name: 'Show sidebar' }).click();
  await expect(app.getByTestId('new-thread')).toBeVisible();
});

test('pane sizes follow the splitters and survive a reload', async ({ app }) => {
  await app.setViewportSize({ width: 1400, height: 900 });
  const dock = app.getByRole('complementary', { name: 'Panels' });
  const before = (await box(dock)).width;
  const splitter = app.getByRole('separator', { name: 'Resize panels' });
  await splitter.focus();
  for (let i = 0; i < 4; i++) await app.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await box(dock)).width).toBe(before + 64);
  const sidebarSplitter = app.getByRole('separator', { name: 'Resize sidebar' });
  const s = await box(sidebarSplitter);
  await app.mouse.move(s.x + 3, s.y + 200);
  await app.mouse.down();
  await app.mouse.move(s.x + 43, s.y + 200, { steps: 4 });
  await app.mouse.up();
  const sidebarWidth = Number(await sidebarSplitter.getAttribute('aria-valuenow'));
  expect(sidebarWidth).toBeGreaterThan(280);
  await app.reload();
  await expect(app.getByTestId('app')).toHaveAttribute('data-ready', 'true');
  await expect.poll(async () => (await box(dock)).width).toBe(before + 64);
  await expect(app.getByRole('separator', { name: 'Resize sidebar' })).toHaveAttribute(
    'aria-valuenow',
    String(sidebarWidth),
  );
  await app.evaluate(() => localStorage.removeItem('workbench.layout'));
});

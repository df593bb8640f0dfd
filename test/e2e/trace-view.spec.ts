/** The full trace view: request and answer of model spans, links with the chat and hook runs, resizable columns. */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, e2eEnv } from './fixtures.ts';
import { TracePage } from './pages/trace-page.ts';

const HOOK = 'trace-view-probe';

test.beforeAll(() => {
  const dir = join(e2eEnv('WB_HOME'), 'hooks');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, HOOK);
  writeFileSync(
    file,
    `#!/bin/sh\nif [ "$1" = hook ]; then echo before_tool_call; exit 0; fi\ncat >/dev/null\necho '{}'\n`,
  );
  chmodSync(file, 0o755);
});

test.afterAll(() => {
  rmSync(join(e2eEnv('WB_HOME'), 'hooks', HOOK), { force: true });
});

for (const size of [
  { width: 1024, height: 700 },
  { width: 1400, height: 900 },
]) {
  test(`full view at ${size.width}×${size.height}: model request and answer, chat links both ways`, async ({
    app,
    fake,
    chat,
  }) => {
    await app.setViewportSize(size);
    const trace = new TracePage(app);
    await fake.script([
      { toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }] },
      { text: 'The readme says hello.' },
    ]);
    await chat.sendNew('Summarise the readme please');
    await chat.waitIdle();

    // Chat card → span.
    await chat.toolCard('read_file').getByTestId('tool-show-span').click();
    await expect(trace.drawer).toBeVisible();
    await expect(trace.drawer).toContainText('execute_tool read_file');

    // Full view: the trace takes the main area, its controls fit.
    await app.getByTestId('trace-full-toggle').click();
    await expect(app.getByTestId('trace-full')).toBeVisible();
    await expect(app.getByRole('main', { name: 'Chat' })).toHaveCount(0);
    for (const id of [
      'trace-search',
      'trace-export-otlp',
      'trace-export-chrome',
      'trace-full-toggle',
    ]) {
      await expect(app.getByTestId(id)).toBeInViewport({ ratio: 1 });
    }

    // The model span shows the request (system + messages) and the answer.
    await trace.rowsOfKind('llm').last().click();
    const request = app.getByTestId('trace-drawer-request');
    await expect(request).toContainText('system');
    await expect(request).toContainText('Summarise the readme please');
    await expect(app.getByTestId('trace-drawer-output')).toContainText('The readme says hello.');

    // The tree column resizes from the keyboard and keeps its width.
    const splitter = app.getByRole('separator', { name: 'Resize span names' });
    const before = Number(await splitter.getAttribute('aria-valuenow'));
    await splitter.focus();
    await app.keyboard.press('ArrowRight');
    await expect(splitter).toHaveAttribute('aria-valuenow', String(before + 16));
    await app.keyboard.press('ArrowLeft');

    // Span → chat card: leaves the full view and reveals the card.
    await trace.rowsOfKind('tool').click();
    await app.getByTestId('trace-drawer-show-in-chat').click();
    await expect(app.getByTestId('trace-full')).toHaveCount(0);
    await expect(chat.toolCard('read_file')).toBeInViewport();
    await expect(chat.toolCard('read_file')).toBeFocused();
  });
}

test('"show this run in the trace" selects the hook span', async ({ app, fake, chat }) => {
  const trace = new TracePage(app);
  await fake.script([
    { toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }] },
    { text: 'Done.' },
  ]);
  await chat.sendNew('Read it');
  await chat.waitIdle();
  await app.getByTestId('tab-hooks').click();
  const run = app.getByTestId('hook-run').filter({ hasText: HOOK }).first();
  await run.click();
  await expect(trace.panel).toBeVisible();
  await expect(trace.drawer).toBeVisible();
  await expect(trace.drawer).toContainText(HOOK);
  const selected = app.locator('[data-testid="trace-row"].selected');
  await expect(selected).toHaveAttribute('data-kind', 'hook');
  await expect(selected).toBeInViewport();
});

test("the trace window page (#trace=<thread>) shows only that thread's trace", async ({
  app,
  fake,
  chat,
  context,
}) => {
  await fake.script([{ text: 'Traced answer.' }]);
  await chat.sendNew('Trace me in a window');
  await chat.waitIdle();
  const threadId = await app.evaluate(() => localStorage.getItem('wb.activeThread'));
  expect(threadId).toBeTruthy();
  const win = await context.newPage();
  await win.setViewportSize({ width: 1024, height: 700 });
  await win.goto(`${e2eEnv('WB_URL')}#trace=${encodeURIComponent(threadId!)}`);
  await expect(win.getByTestId('trace-full')).toBeVisible();
  await expect(win.getByRole('main', { name: 'Chat' })).toHaveCount(0);
  await expect(win.locator('[data-testid="trace-row"][data-kind="llm"]')).toHaveCount(1);
  await expect(win.getByTestId('trace-full-exit')).toHaveText(/Close window/);
  await win.close();
});

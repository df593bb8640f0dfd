import { test, expect } from './fixtures.ts';

test('thread search also finds words inside messages', async ({ fake, chat, sidebar }) => {
  await fake.script([{ text: 'The answer mentions a zebracorn somewhere.' }]);
  await chat.sendNew('Tell me something');
  await expect(chat.assistant.last()).toContainText('zebracorn');
  await chat.waitIdle();
  await sidebar.search.fill('zebracorn');
  await expect(sidebar.threads).toHaveCount(1);
  await expect(sidebar.threads.first()).toContainText('Tell me something');
});

test('rename and delete a thread from the sidebar', async ({ fake, chat, sidebar, app }) => {
  await fake.script([{ text: 'Short answer.' }]);
  await chat.sendNew('Thread to rename');
  await expect(chat.assistant.last()).toContainText('Short answer.');
  await chat.waitIdle();
  const item = app.locator('.thread-row', { has: app.locator('[aria-current="true"]') });
  await item.hover();
  await item.getByTestId('thread-rename').click();
  await app.getByTestId('thread-rename-input').fill('Renamed thread');
  await app.getByTestId('thread-rename-input').press('Enter');
  await expect(sidebar.active()).toContainText('Renamed thread');
  await expect(app.getByTestId('thread-title')).toHaveText('Renamed thread');
  app.once('dialog', (d) => void d.accept());
  const renamed = app.locator('.thread-row', { hasText: 'Renamed thread' });
  await renamed.hover();
  await renamed.getByTestId('thread-delete').click();
  await expect(app.locator('.thread-row', { hasText: 'Renamed thread' })).toHaveCount(0);
  await expect(app.getByTestId('chat-empty')).toBeVisible();
});

import { test, expect } from './fixtures.ts';

test('Shift+Enter adds a line, Enter sends, Ctrl+K searches threads, Ctrl+N starts a new thread', async ({ fake, chat, sidebar, app }) => {
  await fake.script([{ text: 'Two lines received.' }]);
  await app.getByTestId('new-thread').click();
  await chat.input.fill('line one');
  await chat.input.press('Shift+Enter');
  await chat.input.pressSequentially('line two');
  await expect(chat.input).toHaveValue('line one\nline two');
  await chat.input.press('Enter');
  await expect(chat.user.last()).toHaveText('line one\nline two');
  await expect(chat.assistant.last()).toContainText('Two lines received.');
  await chat.waitIdle();

  await app.locator('body').press('Control+k');
  await expect(sidebar.search).toBeFocused();
  await sidebar.search.fill('line one');
  await expect(sidebar.threads).toHaveCount(1);
  await sidebar.search.fill('no such thread at all');
  await expect(sidebar.threads).toHaveCount(0);
  await sidebar.search.fill('');

  await chat.input.press('Control+n');
  await expect(app.getByTestId('chat-empty')).toBeVisible();
  await expect(app.getByTestId('thread-title')).toHaveText('New thread');
});

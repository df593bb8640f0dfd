import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, e2eEnv } from './fixtures.ts';

test('a recipe is offered after / and runs as its filled prompt', async ({ fake, chat }) => {
  mkdirSync(join(e2eEnv('WB_HOME'), 'recipes'), { recursive: true });
  writeFileSync(
    join(e2eEnv('WB_HOME'), 'recipes', 'review.md'),
    '---\ndescription: Review a file\nargument-hint: FILE\n---\nReview $1 carefully.\n',
  );
  await fake.script([{ text: 'Reviewed.' }]);
  await chat.page.getByTestId('new-thread').click();
  await chat.input.fill('/rev');
  const menu = chat.page.getByTestId('recipe-menu');
  await expect(menu).toContainText('/review');
  await expect(menu).toContainText('Review a file');
  await menu.getByRole('button', { name: /review/ }).click();
  await expect(chat.input).toHaveValue('/review ');
  await chat.input.pressSequentially('index.js');
  await chat.input.press('Enter');
  await expect(chat.user.last()).toHaveText('Review index.js carefully.');
  await expect(chat.assistant.last()).toContainText('Reviewed.');
});

test('the thread info drawer adds and removes metadata', async ({ fake, chat }) => {
  await fake.script([{ text: 'Tagged.' }]);
  await chat.sendNew('Tag me');
  await expect(chat.assistant.last()).toContainText('Tagged.');
  await chat.page.getByTestId('thread-info-button').click();
  const drawer = chat.page.getByTestId('thread-info');
  await drawer.getByLabel('Metadata key').fill('ticket');
  await drawer.getByLabel('Metadata value').fill('42');
  await drawer.getByRole('button', { name: 'Add' }).click();
  await expect(chat.page.getByTestId('thread-meta')).toContainText('ticket');
  await expect(chat.page.getByTestId('thread-meta')).toContainText('42');
  await drawer.getByRole('button', { name: 'Remove ticket' }).click();
  await expect(chat.page.getByTestId('thread-meta')).not.toContainText('ticket');
});

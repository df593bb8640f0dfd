import { join } from 'node:path';
import { test, expect, e2eEnv } from './fixtures.ts';
import { openDatabase } from '../../src/main/store/index.ts';
import type { Message } from '../../src/shared/types/index.ts';

test('a 5,000-message thread opens and renders only the visible rows', async ({ app, chat, sidebar }) => {
  // Seed the thread straight into the server's SQLite file (WAL: a second connection is fine).
  const db = openDatabase(join(e2eEnv('WB_HOME'), 'workbench.db'));
  const messages: Message[] = Array.from({ length: 5000 }, (_, i) =>
    i % 2 === 0 ? { role: 'user', content: `Question number ${i / 2}` } : { role: 'assistant', content: `Answer **${(i - 1) / 2}** with \`code\` and a [link](https://example.com).` },
  );
  let threadId: string;
  try {
    const state = db.threads.loadOrCreate(undefined, e2eEnv('WB_WORKSPACE'));
    threadId = state.thread_id;
    db.threads.appendMessages(threadId, messages);
    db.threads.setTitle(threadId, 'Huge thread');
  } finally {
    db.close();
  }
  await app.reload();
  await sidebar.threads.filter({ hasText: 'Huge thread' }).click();
  await expect(chat.assistant.last()).toContainText('Answer 2499');
  const rendered = await app.locator('[data-testid="message-list"] .row').count();
  expect(rendered).toBeLessThan(80);
  // Scrolling to the top renders the first messages, still virtualized.
  await app.getByTestId('message-list').evaluate((el) => (el.scrollTop = 0));
  await expect(chat.user.first()).toHaveText('Question number 0');
  expect(await app.locator('[data-testid="message-list"] .row').count()).toBeLessThan(80);
});

// How smooth it stays (longest main-thread task) is measured by `npm run bench -- --only ui`, not here.
test('a fast 5,000-delta stream arrives whole, in order, with the page still responsive', async ({ fake, chat, app }) => {
  const text = Array.from({ length: 400 }, (_, i) => `Sentence ${i} streams quickly through the UI.`).join(' ');
  await fake.script([{ text, chunkSize: 4, delayMs: 0 }]);
  await chat.sendNew('Stream fast');
  await expect(chat.assistant.last()).toContainText('Sentence 399 streams quickly', { timeout: 30_000 });
  const shown = await chat.assistant.last().innerText();
  expect(shown.replace(/\s+/g, ' ')).toContain(text);
  await expect(app.getByRole('textbox').first()).toBeEditable();
});

import { join } from 'node:path';
import { test, expect, e2eEnv } from './fixtures.ts';
import { openDatabase } from '../../src/main/store/index.ts';
import type { Message } from '../../src/shared/types/index.ts';

test('a 5,000-message thread opens quickly and renders only the visible rows', async ({ app, chat, sidebar }) => {
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
  const started = Date.now();
  await sidebar.threads.filter({ hasText: 'Huge thread' }).click();
  await expect(chat.assistant.last()).toContainText('Answer 2499');
  expect(Date.now() - started).toBeLessThan(8000);
  const rendered = await app.locator('[data-testid="message-list"] .row').count();
  expect(rendered).toBeLessThan(80);
  // Scrolling to the top renders the first messages, still virtualized.
  await app.getByTestId('message-list').evaluate((el) => (el.scrollTop = 0));
  await expect(chat.user.first()).toHaveText('Question number 0');
  expect(await app.locator('[data-testid="message-list"] .row').count()).toBeLessThan(80);
});

test('a fast 5,000-delta stream renders once per frame and finishes promptly', async ({ fake, chat, app }) => {
  const text = Array.from({ length: 400 }, (_, i) => `Sentence ${i} streams quickly through the UI.`).join(' ');
  await fake.script([{ text, chunkSize: 4, delayMs: 0 }]);
  await app.evaluate(() => {
    const w = window as unknown as { __longest: number };
    w.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
  const started = Date.now();
  await chat.sendNew('Stream fast');
  await expect(chat.assistant.last()).toContainText('Sentence 399 streams quickly', { timeout: 20_000 });
  expect(Date.now() - started).toBeLessThan(15_000);
  const longest = await app.evaluate(() => (window as unknown as { __longest: number }).__longest);
  expect(longest).toBeLessThan(2500);
});

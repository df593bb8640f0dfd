import { test, expect } from './fixtures.ts';

// Answers written to break or stall the Markdown parser, as an injected model could write them.

test('a block nested too deep to parse shows as plain text, and the rest of the window keeps working', async ({ fake, chat }) => {
  const deep = `${'>'.repeat(3000)} deep`;
  await fake.script([{ text: `Before it.\n\n${deep}\n\nAfter it, **bold**.`, chunkSize: 2000 }, { text: 'Second answer.' }]);
  await chat.sendNew('Write something odd');
  const answer = chat.assistant.last();
  await expect(answer.locator('strong')).toHaveText('bold');
  await expect(answer.locator('.md-plain')).toHaveText(deep);
  await expect(answer.locator('.md-note')).toHaveText(/^Shown as plain text: it could not be formatted \(.+\)\.$/);
  await expect(chat.page.getByTestId('error-boundary')).toHaveCount(0);
  await chat.waitIdle();
  await chat.send('And now?');
  await expect(chat.assistant.last()).toContainText('Second answer.');
});

test('a block that takes too long to format shows as plain text, and the page answers meanwhile', async ({ fake, chat }) => {
  // Unclosed emphasis marks: marked's time grows with their square (seconds at 128 KB).
  const slow = '*a'.repeat(150_000);
  await fake.script([{ text: `Intro.\n\n${slow}`, chunkSize: 50_000, delayMs: 20 }]);
  await chat.sendNew('Write something slow');
  const answer = chat.assistant.last();
  await expect(answer.locator('.md-note')).toHaveText('Shown as plain text: formatting it took over 1.5 s.', { timeout: 20_000 });
  await expect(answer.locator('.md-plain')).toHaveText(slow);
  // The main thread was never held by the parse: typing reaches the composer at once.
  await chat.input.fill('still responsive');
  await expect(chat.input).toHaveValue('still responsive');
});

/**
 * The desk a user lives at: a command's output streaming live, reviewing and reverting the agent's
 * edits, recovering a failed send without retyping, Continue after the iteration cap, and `@file`
 * completion — at a small laptop size and a large screen.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, e2eEnv } from './fixtures.ts';

const SIZES = [
  { name: '1024x700', width: 1024, height: 700 },
  { name: '1400x900', width: 1400, height: 900 },
];

for (const size of SIZES) {
  test.describe(`at ${size.name}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    const ws = () => e2eEnv('WB_WORKSPACE');

    test('a command streams its output while it runs, and a cancelled one says so', async ({
      fake,
      chat,
    }) => {
      const command =
        'for i in 1 2 3; do echo "line-$i"; sleep 0.8; done; printf "meter 10%%\\rmeter 60%%\\rmeter 100%%\\n"; printf "\\033[31mred-alert\\033[0m\\n" >&2';
      await fake.script([
        { toolCalls: [{ name: 'execute', args: { command } }] },
        { text: 'Ran it.' },
      ]);
      await chat.sendNew('Run the loop');
      await chat.page.getByTestId('approve-once').click();
      const card = chat.toolCard('execute');
      const terminal = card.getByTestId('tool-terminal');
      // Output shows up while the command is still running.
      await expect(terminal).toContainText('line-1');
      await expect(card).toHaveAttribute('data-status', 'running');
      await expect(terminal).toContainText('line-3');
      await expect(terminal.locator('[data-stream="stderr"] .ansi-red-fg')).toHaveText('red-alert');
      // A progress meter redrawing its line with carriage returns shows its last state only.
      await expect(terminal).toContainText('meter 100%');
      await expect(terminal).not.toContainText('meter 60%');
      await expect(card).toHaveAttribute('data-status', 'done');
      await expect(chat.assistant.last()).toContainText('Ran it.');

      await fake.script([
        { toolCalls: [{ name: 'execute', args: { command: 'echo started; sleep 30' } }] },
        { text: 'never' },
      ]);
      await chat.send('Run something long');
      await chat.page.getByTestId('approve-once').click();
      const long = chat.toolCard('execute').last();
      await expect(long.getByTestId('tool-terminal')).toContainText('started');
      await chat.page.getByTestId('cancel-button').click();
      await expect(long).toHaveAttribute('data-status', 'cancelled');
      await expect(long.getByTestId('tool-status')).toHaveText('Cancelled');
      await expect(long.getByTestId('terminal-footer')).toContainText('cancelled');
    });

    test('an edit is reviewed as a diff, listed in Changes, and reverted from its card', async ({
      fake,
      chat,
    }) => {
      test.setTimeout(90_000);
      const file = `review-${size.name}.txt`;
      writeFileSync(join(ws(), file), 'alpha\nbeta\ngamma\n');
      await fake.script([
        {
          toolCalls: [
            { name: 'edit_file', args: { path: file, old_text: 'beta', new_text: 'BETA changed' } },
          ],
        },
        { text: 'Edited.' },
      ]);
      await chat.sendNew('Edit the file');
      const diff = chat.page.getByTestId('approval-diff');
      await expect(diff).toBeVisible();
      await expect(diff).toHaveAttribute('data-path', file);
      // Monaco is a large chunk: its first load on a busy machine takes a while.
      await expect(diff.locator('.monaco-diff-editor')).toBeVisible({ timeout: 30_000 });
      await expect(diff).toContainText('BETA changed');
      await chat.page.getByTestId('approve-once').click();
      await expect(chat.assistant.last()).toContainText('Edited.');
      expect(readFileSync(join(ws(), file), 'utf8')).toBe('alpha\nBETA changed\ngamma\n');

      await chat.toolCard('edit_file').getByTestId('show-changes').click();
      const row = chat.page.locator(`[data-testid="change-file"][data-path="${file}"]`);
      await expect(row).toBeVisible();
      await row.getByTestId('change-toggle').click();
      await expect(row.locator('.monaco-diff-editor')).toBeVisible({ timeout: 30_000 });

      await chat.toolCard('edit_file').getByTestId('revert').click();
      await expect(chat.toolCard('edit_file').getByTestId('revert-status')).toContainText(
        `Reverted ${file}`,
      );
      expect(readFileSync(join(ws(), file), 'utf8')).toBe('alpha\nbeta\ngamma\n');
      await expect(row).toContainText('reverted');
    });

    test('a file changed since the agent wrote it is a conflict, shown before anything is overwritten', async ({
      fake,
      chat,
    }) => {
      const file = `conflict-${size.name}.txt`;
      await fake.script([
        { toolCalls: [{ name: 'write_file', args: { path: file, content: 'agent text\n' } }] },
        { text: 'Written.' },
      ]);
      await chat.sendNew('Write a file');
      await chat.page.getByTestId('approve-once').click();
      await expect(chat.assistant.last()).toContainText('Written.');
      writeFileSync(join(ws(), file), 'my own text\n');
      await chat.page.getByTestId('tab-changes').click();
      const row = chat.page.locator(`[data-testid="change-file"][data-path="${file}"]`);
      await row.getByTestId('revert-file').click();
      const conflict = chat.page.getByTestId('revert-conflict');
      await expect(conflict).toBeVisible();
      await expect(conflict).toContainText(file);
      expect(readFileSync(join(ws(), file), 'utf8')).toBe('my own text\n');
      await conflict.getByTestId('revert-keep').click();
      await expect(conflict).toHaveCount(0);
      expect(readFileSync(join(ws(), file), 'utf8')).toBe('my own text\n');
    });

    test('a failed send keeps its text across a reload, links to Settings and is retried without retyping or storing it twice', async ({
      fake,
      chat,
      app,
    }) => {
      const prompt = `Summarize the project (${size.name})`;
      await fake.script([{ error: { status: 401 } }]);
      await chat.sendNew(prompt);
      const failure = chat.page.getByTestId('send-failure');
      await expect(failure).toBeVisible();
      await expect(chat.page.getByTestId('send-open-settings')).toBeVisible();
      await expect(chat.input).toHaveValue(prompt);
      await app.reload();
      await expect(chat.page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
      await expect(chat.input).toHaveValue(prompt);
      await expect(failure).toBeVisible();
      await fake.script([{ text: 'Here is the summary.' }]);
      await chat.page.getByTestId('send-retry').click();
      await expect(chat.assistant.last()).toContainText('Here is the summary.');
      await expect(failure).toHaveCount(0);
      await expect(chat.input).toHaveValue('');
      // The message was stored before the model call failed: the retry answers it, once.
      await expect(chat.user.filter({ hasText: prompt })).toHaveCount(1);
      const chats = (await fake.requests()).filter((r) => r.path.includes('chat/completions'));
      const last = chats.at(-1)!.body as { messages: { role: string; content: string }[] };
      const asked = last.messages.filter((m) => m.role === 'user' && m.content.includes(prompt));
      expect(asked).toHaveLength(1);
    });

    test('the iteration cap says so in the chat and Continue goes on', async ({ fake, chat }) => {
      const steps = Array.from({ length: 25 }, () => ({ toolCalls: [{ name: 'ls', args: {} }] }));
      await fake.script([...steps, { text: 'Finished after continuing.' }]);
      await chat.sendNew('Do a long task');
      const notice = chat.page.getByTestId('notice-iteration_cap');
      await expect(notice).toBeVisible({ timeout: 20_000 });
      await expect(notice).toContainText('25 steps');
      await notice.getByTestId('continue-run').click();
      await expect(chat.assistant.last()).toContainText('Finished after continuing.');
    });

    test('an edit is reverted from its span in the trace, and a message is edited and resent on a fork', async ({
      fake,
      chat,
    }) => {
      const file = `trace-revert-${size.name}.txt`;
      writeFileSync(join(ws(), file), 'before\n');
      await fake.script([
        { toolCalls: [{ name: 'write_file', args: { path: file, content: 'after\n' } }] },
        { text: 'Changed it.' },
      ]);
      await chat.sendNew('Change the file');
      await chat.page.getByTestId('approve-once').click();
      await expect(chat.assistant.last()).toContainText('Changed it.');
      await chat.page.getByTestId('tab-trace').click();
      const row = chat.page
        .locator('[data-testid="trace-row"][data-kind="tool"]')
        .filter({ hasText: 'write_file' })
        .first();
      await row.click();
      await chat.page.getByTestId('span-revert-button').click();
      await expect(chat.page.getByTestId('span-revert-button-status')).toContainText(
        `Reverted ${file}`,
      );
      expect(readFileSync(join(ws(), file), 'utf8')).toBe('before\n');

      await fake.script([{ text: 'Answer to the edited question.' }]);
      await chat.page.getByTestId('message-user-row').first().getByTestId('message-edit').click();
      await chat.page.getByTestId('edit-input').fill('Change nothing, just answer');
      await chat.page.getByTestId('edit-send').click();
      await expect(chat.assistant.last()).toContainText('Answer to the edited question.');
      await expect(chat.user.first()).toHaveText('Change nothing, just answer');
      await expect(chat.page.getByTestId('thread-title')).toContainText('(fork)');
    });

    test('@ completes workspace files, the mention is read once sent, and / lists commands', async ({
      chat,
      fake,
    }) => {
      mkdirSync(join(ws(), 'src'), { recursive: true });
      writeFileSync(join(ws(), 'src', `mention-target-${size.width}.ts`), 'export {};\n');
      await chat.page.getByTestId('new-thread').click();
      await chat.input.fill('Look at @mention-target');
      const menu = chat.page.getByTestId('completion-menu');
      await expect(menu).toContainText(`src/mention-target-${size.width}.ts`);
      await chat.input.press('Enter');
      await expect(chat.input).toHaveValue(/^Look at @src\/mention-target-\d+\.ts $/);
      await expect(menu).toHaveCount(0);
      // Sent, the mention is read for the person before the model answers: a card of its own.
      const completed = /@(\S+)/.exec(await chat.input.inputValue())![1]!;
      await fake.script([{ text: 'It exports nothing.' }]);
      await chat.input.press('Enter');
      await expect(chat.assistant.last()).toContainText('It exports nothing.');
      const group = chat.page.getByTestId('tool-group').last();
      await expect(group).toContainText('Read for your @ mentions');
      await expect(group.getByTestId('tool-card')).toContainText(completed);
      await chat.input.fill('/');
      await expect(menu).toContainText('/new');
      await expect(menu).toContainText('/clear');
    });
  });
}

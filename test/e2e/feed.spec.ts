import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test, expect, e2eEnv } from './fixtures.ts';

const BIN = resolve(import.meta.dirname, '../../bin/workbench.mjs');

test('a recipe is offered after / and runs as its filled prompt', async ({ fake, chat }) => {
  mkdirSync(join(e2eEnv('WB_HOME'), 'recipes'), { recursive: true });
  writeFileSync(
    join(e2eEnv('WB_HOME'), 'recipes', 'review.md'),
    '---\ndescription: Review a file\nargument-hint: FILE\n---\nReview $1 carefully.\n',
  );
  await fake.script([{ text: 'Reviewed.' }]);
  await chat.page.getByTestId('new-thread').click();
  await chat.input.fill('/rev');
  const menu = chat.page.getByTestId('completion-menu');
  await expect(menu).toContainText('/review');
  await expect(menu).toContainText('Review a file');
  await menu.getByTestId('completion-item').filter({ hasText: '/review' }).click();
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

test('a CLI run killed with SIGKILL shows as interrupted, and Resume completes it', async ({
  fake,
  chat,
  sidebar,
}) => {
  test.setTimeout(60_000);
  const workspace = e2eEnv('WB_WORKSPACE');
  const pidFile = join(workspace, 'sleep.pid');
  await fake.script([
    {
      toolCalls: [{ name: 'execute', args: { command: `sleep 30 & echo $! > ${pidFile}; wait` } }],
    },
    { text: 'Resumed and done.' },
  ]);
  const cli = spawn(process.execPath, [BIN, 'run', '--auto', 'the long task'], {
    cwd: workspace,
    env: {
      PATH: process.env.PATH,
      HOME: e2eEnv('WB_HOME'),
      WORKBENCH_HOME: e2eEnv('WB_HOME'),
      OPENAI_BASE_URL: e2eEnv('WB_FAKE_URL'),
      OPENAI_API_KEY: 'sk-test',
      WORKBENCH_MODEL: 'fake-model',
    },
    stdio: 'ignore',
  });
  await expect.poll(() => existsSync(pidFile), { timeout: 20_000 }).toBe(true);
  // The launcher's child runs the agent: it owns the run.
  const db = new DatabaseSync(join(e2eEnv('WB_HOME'), 'workbench.db'), { readOnly: true });
  // This CLI run's, not another one still running in the app (killing the app's server would end
  // every test after this one).
  const { owner_pid } = db
    .prepare(
      `SELECT r.owner_pid FROM runs r JOIN threads t ON t.id = r.thread_id
       WHERE r.state = 'running' AND t.title = 'the long task'`,
    )
    .get() as { owner_pid: number };
  db.close();
  process.kill(owner_pid, 'SIGKILL');
  await new Promise((r) => cli.once('exit', r));
  await sidebar.threads.filter({ hasText: 'the long task' }).click();
  await expect(chat.page.getByTestId('interrupted-banner')).toBeVisible({ timeout: 25_000 });
  await chat.page.getByTestId('resume-button').click();
  await expect(chat.assistant.last()).toContainText('Resumed and done.');
  await expect(chat.page.getByTestId('interrupted-banner')).toHaveCount(0);
});

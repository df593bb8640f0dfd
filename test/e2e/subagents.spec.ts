import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect, e2eEnv } from './fixtures.ts';

// A user profile (no trust needed), removed afterwards so other specs see no `task` tool.
const profileFile = () => join(e2eEnv('WB_HOME'), 'agents', 'e2e-researcher.md');
test.beforeAll(async () => {
  await mkdir(join(e2eEnv('WB_HOME'), 'agents'), { recursive: true });
  await writeFile(
    profileFile(),
    '---\ndescription: Finds facts for the e2e test\n---\nYou research.\n',
  );
});
test.afterAll(async () => {
  await rm(profileFile(), { force: true });
  await rm(join(e2eEnv('WB_HOME'), 'agents', 'e2e-writer.md'), { force: true });
});

test('the Agents panel creates a profile from a template, checked by the main process', async ({
  app,
}) => {
  await app.getByTestId('tab-agents').click();
  await app.getByTestId('new-agent').click();
  await app.getByTestId('new-agent-name').fill('e2e-writer');
  await app.getByLabel('Where').selectOption('user');
  await app.getByTestId('new-agent-create').click();
  await expect(app.getByTestId('agent-editor')).toContainText('new: e2e-writer (user)');
  await expect(app.getByTestId('monaco-editor')).toBeVisible();
  await app.getByTestId('agent-save').click();
  await expect(app.locator('[data-testid="agent-row"][data-name="e2e-writer"]')).toContainText(
    'tools: read_file, grep, glob, ls',
  );
  await expect(app.getByTestId('agent-problems').locator('li')).toHaveCount(0);
});

test('a subagent run is a card: its approval names it, its transcript opens, the Agents panel lists it', async ({
  fake,
  chat,
  app,
}) => {
  await fake.script([
    {
      toolCalls: [
        { name: 'task', args: { subagent_type: 'e2e-researcher', description: 'find the facts' } },
      ],
    },
    { toolCalls: [{ name: 'write_file', args: { path: 'facts.txt', content: 'forty-two\n' } }] },
    { text: 'facts: forty-two' },
    { text: 'All done: forty-two' },
  ]);
  await chat.sendNew('research please');
  const card = app.getByTestId('subagent-card');
  await expect(card).toHaveAttribute('data-agent', 'e2e-researcher');
  await expect(card).toContainText('find the facts');
  await expect(chat.approval).toContainText(
    'The subagent e2e-researcher wants to write this change',
  );
  await chat.approval.getByTestId('approve-once').click();
  await expect(chat.assistant.last()).toContainText('All done: forty-two');
  await expect(card.getByTestId('subagent-status')).toHaveText('Done');
  await card.getByTestId('subagent-toggle').click();
  await expect(card.getByTestId('subagent-transcript')).toContainText('find the facts');
  await expect(card.getByTestId('subagent-transcript')).toContainText('facts: forty-two');

  // One run in the trace: the subagent's spans nest inside it, under the task span.
  await app.getByTestId('tab-trace').click();
  await expect(app.getByTestId('trace-run')).toHaveCount(1);
  await expect(
    app.getByTestId('trace-row').filter({ hasText: 'agent e2e-researcher' }).first(),
  ).toBeVisible();

  await app.getByTestId('tab-agents').click();
  await expect(app.locator('[data-testid="agent-row"][data-name="e2e-researcher"]')).toContainText(
    'Finds facts for the e2e test',
  );
});

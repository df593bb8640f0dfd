/** Done without leaving the app: two agents written in the Agents panel, a router whose script sends "search" questions to one. */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, e2eEnv } from './fixtures.ts';

// User profiles (no trust needed), removed afterwards so other specs see no `task` tool.
const agentsDir = () => join(e2eEnv('WB_HOME'), 'agents');
const files = ['search.md', 'writer.md', 'router.md', 'router.hooks.ts'];
test.afterAll(() => {
  for (const f of files) rmSync(join(agentsDir(), f), { force: true });
});

async function createAgent(app: Page, name: string): Promise<void> {
  await app.getByTestId('new-agent').click();
  await app.getByTestId('new-agent-name').fill(name);
  await app.getByLabel('Where').selectOption('user');
  await app.getByTestId('new-agent-create').click();
  await app.getByTestId('agent-save').click();
  await expect(app.locator(`[data-testid="agent-row"][data-name="${name}"]`)).toBeVisible();
}

test('a script added in the Agents panel routes a question mentioning "search" to the search agent', async ({
  app,
  chat,
  fake,
}) => {
  await app.getByTestId('tab-agents').click();
  await createAgent(app, 'search');
  await createAgent(app, 'writer');
  await createAgent(app, 'router');

  // The router's editor is open: add a script from the template and edit it in Monaco.
  await app.getByTestId('agent-script-add').click();
  const editor = app.getByTestId('agent-script-editor');
  await expect(editor).toContainText('Script of router');
  await expect(app.getByTestId('agent-script')).toContainText('router.hooks.ts');
  await expect(app.locator('[data-testid="agent-row"][data-name="router"]')).toContainText(
    'router.hooks.ts',
  );
  const scriptPath = join(agentsDir(), 'router.hooks.ts');
  const edited = `${readFileSync(scriptPath, 'utf8')}// edited in the app\n`;
  await editor.locator('.view-lines').click();
  await app.keyboard.press('ControlOrMeta+End');
  await app.keyboard.insertText('// edited in the app\n');
  await expect(app.getByTestId('agent-script-dirty')).toBeVisible();
  await app.keyboard.press('ControlOrMeta+S');
  await expect(app.getByTestId('agent-script-dirty')).toHaveCount(0);
  expect(readFileSync(scriptPath, 'utf8')).toBe(edited);
  expect(readFileSync(join(agentsDir(), 'router.md'), 'utf8')).toContain(
    'script: ./router.hooks.ts',
  );

  // The composer runs the router; its Create hands the question to `search`, whose answer comes back.
  await fake.script([{ text: 'search agent: X is defined in x.ts:42' }]);
  await app.getByTestId('new-thread').click();
  await app.getByTestId('agent-picker').selectOption('router');
  await chat.send('please search for X');
  await expect(chat.assistant.last()).toContainText('search agent: X is defined in x.ts:42');
  const requests = await fake.requests();
  expect(requests).toHaveLength(1);
  expect(JSON.stringify(requests[0]!.body)).toContain('You are search.');
});

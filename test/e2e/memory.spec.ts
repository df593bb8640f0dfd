import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, e2eEnv } from './fixtures.ts';
import { MemoryPage } from './pages/memory-page.ts';

const agentsMd = () => join(e2eEnv('WB_WORKSPACE'), 'AGENTS.md');
const systemOf = (r: { body: unknown }) =>
  (r.body as { messages: Array<{ role: string; content: string }> }).messages[0]?.content ?? '';
const completions = async (fake: { requests(): Promise<Array<{ path: string; body: unknown }>> }) =>
  (await fake.requests()).filter((r) => r.path.includes('chat/completions'));

test.afterEach(() => rmSync(agentsMd(), { force: true }));

test('editing and saving AGENTS.md changes the file and the next model request', async ({
  app,
  fake,
  chat,
}) => {
  const memory = new MemoryPage(app);
  await memory.open('workspace');
  await expect(memory.pane('workspace').getByTestId('memory-path')).toHaveText(agentsMd());
  await memory.type('workspace', '# Project rules\nAlways answer in haiku.');
  await expect(memory.pane('workspace').getByTestId('memory-tokens')).toContainText('≈ 10 tokens');
  await app.keyboard.press('ControlOrMeta+S');
  await expect(memory.dirty).toHaveCount(0);
  expect(readFileSync(agentsMd(), 'utf8')).toBe('# Project rules\nAlways answer in haiku.');

  await fake.script([{ text: 'Noted.' }]);
  await chat.sendNew('hello');
  await expect(chat.assistant.last()).toContainText('Noted.');
  const last = (await completions(fake)).at(-1)!;
  expect(systemOf(last)).toContain('<agent_memory>\n# Project rules\nAlways answer in haiku.');

  // The effective context shows that exact system message.
  await memory.open('effective');
  await expect(app.getByTestId('effective-system')).toContainText('Always answer in haiku.');
  expect(await app.getByTestId('effective-system').innerText()).toBe(systemOf(last));
});

test('a conflicting external edit is detected and the user chooses', async ({ app }) => {
  writeFileSync(agentsMd(), 'version one\n');
  const memory = new MemoryPage(app);
  await memory.open('workspace');
  await expect(memory.pane('workspace').locator('.view-lines')).toContainText('version one');
  await memory.type('workspace', 'my edit');
  writeFileSync(agentsMd(), 'their edit\n');
  await memory.save.click();
  await expect(memory.conflict).toBeVisible();
  await expect(app.getByTestId('conflict-diff')).toContainText('their edit');
  expect(readFileSync(agentsMd(), 'utf8')).toBe('their edit\n');
  await app.getByTestId('conflict-mine').click();
  await expect(memory.conflict).toHaveCount(0);
  await expect(memory.dirty).toHaveCount(0);
  expect(readFileSync(agentsMd(), 'utf8')).toBe('my edit');

  // And "theirs" drops the draft.
  await memory.type('workspace', 'draft to drop');
  writeFileSync(agentsMd(), 'newer on disk\n');
  await memory.save.click();
  await app.getByTestId('conflict-theirs').click();
  await expect(memory.pane('workspace').locator('.view-lines')).toContainText('newer on disk');
  await expect(memory.dirty).toHaveCount(0);
  expect(readFileSync(agentsMd(), 'utf8')).toBe('newer on disk\n');
});

test('when the agent edits AGENTS.md during a run the editor shows it, or offers a reload over unsaved edits', async ({
  app,
  fake,
  chat,
}) => {
  writeFileSync(agentsMd(), 'start\n');
  const memory = new MemoryPage(app);
  await memory.open('workspace');
  await expect(memory.pane('workspace').locator('.view-lines')).toContainText('start');
  await fake.script([
    {
      toolCalls: [
        {
          name: 'edit_file',
          args: { path: 'AGENTS.md', old_text: 'start', new_text: 'the agent learned something' },
        },
      ],
    },
    { text: 'Saved to memory.' },
  ]);
  await chat.sendNew('remember this');
  await expect(chat.approval).toBeVisible();
  await app.getByTestId('approve-once').click();
  await expect(chat.assistant.last()).toContainText('Saved to memory.');
  await expect(memory.pane('workspace').locator('.view-lines')).toContainText(
    'the agent learned something',
  );
  await expect(memory.dirty).toHaveCount(0);

  // With unsaved edits, a change on disk is offered as a reload instead of overwriting them.
  await memory.type('workspace', 'unsaved words');
  await fake.script([
    {
      toolCalls: [
        { name: 'write_file', args: { path: 'AGENTS.md', content: 'rewritten by the agent\n' } },
      ],
    },
    { text: 'Rewrote it.' },
  ]);
  await chat.send('rewrite memory');
  await expect(chat.approval).toBeVisible();
  await app.getByTestId('approve-once').click();
  await expect(chat.assistant.last()).toContainText('Rewrote it.');
  await expect(memory.external).toBeVisible();
  await expect(memory.pane('workspace').locator('.view-lines')).toContainText('unsaved words');
  await app.getByTestId('memory-reload').click();
  await expect(memory.pane('workspace').locator('.view-lines')).toContainText(
    'rewritten by the agent',
  );
});

test("the effective context lists a Claude Code rule with paths as waiting for a matching file", async ({ app }) => {
  const dotClaude = join(e2eEnv('WB_WORKSPACE'), '.claude');
  const made = !existsSync(dotClaude);
  const rules = join(dotClaude, 'rules');
  mkdirSync(rules, { recursive: true });
  writeFileSync(join(rules, 'api.md'), '---\npaths: "src/api/**/*.ts"\n---\nRoutes validate input.\n');
  try {
    const memory = new MemoryPage(app);
    await memory.open('effective');
    await expect(app.getByTestId('memory-rule-paths')).toHaveText(
      ' · for src/api/**/*.ts: waits until the agent touches a matching file',
    );
  } finally {
    rmSync(made ? dotClaude : rules, { recursive: true, force: true });
  }
});

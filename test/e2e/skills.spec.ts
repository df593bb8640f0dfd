import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, e2eEnv } from './fixtures.ts';
import { SkillsPage } from './pages/skills-page.ts';

const skillsDir = () => join(e2eEnv('WB_WORKSPACE'), '.workbench', 'skills');
const systemOf = (r: { body: unknown }) =>
  (r.body as { messages: Array<{ role: string; content: string }> }).messages[0]?.content ?? '';

test.afterEach(() =>
  rmSync(join(e2eEnv('WB_WORKSPACE'), '.workbench', 'skills'), { recursive: true, force: true }),
);

test('a new skill appears in the catalog of the next model request', async ({
  app,
  fake,
  chat,
}) => {
  const skills = new SkillsPage(app);
  await skills.open();
  await skills.create('release-notes', 'Write release notes from the git log');
  await expect(skills.row('release-notes')).toBeVisible();
  const path = join(skillsDir(), 'release-notes', 'SKILL.md');
  expect(existsSync(path)).toBe(true);
  const line = `[release-notes] Write release notes from the git log → Read ${path} for full instructions`;
  await expect(skills.catalogLine).toContainText(line);
  await expect(skills.problems).toContainText('Frontmatter is valid');

  await fake.script([{ text: 'I know the skill.' }]);
  await chat.sendNew('what skills do you have?');
  await expect(chat.assistant.last()).toContainText('I know the skill.');
  const last = (await fake.requests()).filter((r) => r.path.includes('chat/completions')).at(-1)!;
  expect(systemOf(last)).toContain(line);
});

test('the editor validates frontmatter live; a skill can be switched off and deleted', async ({
  app,
  fake,
  chat,
}) => {
  const skills = new SkillsPage(app);
  await skills.open();
  await skills.create('checker', 'Check things');
  await expect(skills.editor).toBeVisible();
  await skills.type('---\nname: other\n---\n# body\n');
  await expect(skills.problems).toContainText('description is required');
  await expect(skills.problems).toContainText('differs from its folder "checker"');
  await expect(skills.catalogLine).toContainText('not listed until the errors are fixed');
  await skills.type('---\nname: checker\ndescription: Check things twice\n---\n# body\n');
  await expect(skills.problems).toContainText('Frontmatter is valid');
  await app.keyboard.press('ControlOrMeta+S');
  await expect(app.getByTestId('skill-dirty')).toHaveCount(0);
  await expect(skills.row('checker')).toContainText('Check things twice');

  await skills.row('checker').getByTestId('skill-enabled').uncheck();
  await expect(skills.row('checker').getByTestId('skill-enabled')).not.toBeChecked();
  const settings = () =>
    JSON.parse(readFileSync(join(e2eEnv('WB_HOME'), 'settings.json'), 'utf8')) as {
      disabled_skills?: string[];
    };
  await expect.poll(() => settings().disabled_skills).toEqual(['checker']);
  await fake.script([{ text: 'ok' }]);
  await chat.sendNew('hi');
  await expect(chat.assistant.last()).toContainText('ok');
  const last = (await fake.requests()).filter((r) => r.path.includes('chat/completions')).at(-1)!;
  expect(systemOf(last)).not.toContain('[checker]');
  await skills.row('checker').getByTestId('skill-enabled').check();
  await expect.poll(() => settings().disabled_skills).toEqual([]);

  await skills.row('checker').getByTestId('skill-delete').click();
  await expect(skills.row('checker')).toContainText('Deletes');
  await skills.row('checker').getByTestId('skill-delete-confirm').click();
  await expect(skills.row('checker')).toHaveCount(0);
  expect(existsSync(join(skillsDir(), 'checker'))).toBe(false);
});

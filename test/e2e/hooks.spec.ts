import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test, expect, e2eEnv } from './fixtures.ts';
import { HooksPage } from './pages/hooks-page.ts';

const hooksDir = () => join(e2eEnv('WB_HOME'), 'hooks');
const marker = () => join(e2eEnv('WB_HOME'), 'e2e-audit.log');
const HOOK = 'e2e-audit';

test.beforeEach(() => {
  mkdirSync(hooksDir(), { recursive: true });
  const file = join(hooksDir(), HOOK);
  // An after_tool_call audit hook: appends one line per tool call, prints to both streams on `run`.
  writeFileSync(
    file,
    `#!/bin/sh\nif [ "$1" = hook ]; then echo after_tool_call; exit 0; fi\ncat >/dev/null\necho ran >> '${marker()}'\necho "audit note" >&2\n`,
  );
  chmodSync(file, 0o755);
});

test.afterEach(() => {
  for (const f of [HOOK, `${HOOK}.disable`]) rmSync(join(hooksDir(), f), { force: true });
  rmSync(marker(), { force: true });
});

const lines = () =>
  existsSync(marker()) ? readFileSync(marker(), 'utf8').trim().split('\n').length : 0;

test('the pipeline lists built-ins and user hooks; turning a hook off renames it and it stops running', async ({
  app,
  fake,
  chat,
}) => {
  const hooks = new HooksPage(app);
  await hooks.open();
  const id = `executable:user:${HOOK}`;
  await expect(hooks.row('builtin:tracing')).toBeVisible();
  await expect(hooks.row(id)).toHaveAttribute('data-state', 'on');
  // tracing → todolist → subagents → user hooks, the user's own hooks listed right after.
  await expect(hooks.rows.nth(3)).toHaveAttribute('data-id', 'builtin:user-hooks');
  await expect(hooks.rows.nth(4)).toHaveAttribute('data-id', id);

  await fake.script([
    { toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }] },
    { text: 'Read it.' },
  ]);
  await chat.sendNew('read the readme');
  await expect(chat.assistant.last()).toContainText('Read it.');
  expect(lines()).toBe(1);

  await hooks.switch(id).uncheck();
  await expect(hooks.row(id)).toHaveAttribute('data-state', 'off');
  await expect.poll(() => existsSync(join(hooksDir(), `${HOOK}.disable`))).toBe(true);
  expect(existsSync(join(hooksDir(), HOOK))).toBe(false);

  await fake.script([
    { toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }] },
    { text: 'Read it again.' },
  ]);
  await chat.send('read it again');
  await expect(chat.assistant.last()).toContainText('Read it again.');
  expect(lines()).toBe(1);

  await hooks.switch(id).check();
  await expect(hooks.row(id)).toHaveAttribute('data-state', 'on');
  await expect.poll(() => existsSync(join(hooksDir(), HOOK))).toBe(true);

  // A run from the chat opens its span in the Trace tab.
  await hooks.runs.filter({ hasText: HOOK }).first().click();
  await expect(app.getByTestId('tab-trace')).toHaveAttribute('aria-selected', 'true');
});

test('"Test" runs a hook and shows its output, exit code and how it was read', async ({ app }) => {
  const hooks = new HooksPage(app);
  await hooks.open();
  const row = hooks.row(`executable:user:${HOOK}`);
  await row.getByTestId('hook-test-open').click();
  await expect(hooks.test.getByTestId('hook-test-payload')).toHaveValue(/"tool_name": "bash"/);
  await hooks.test.getByTestId('hook-test-run').click();
  await expect(hooks.test.getByTestId('hook-test-read-as')).toHaveText('none');
  await expect(hooks.test.getByTestId('hook-test-exit')).toContainText('0');
  await expect(hooks.test.getByTestId('hook-test-stderr')).toHaveText('audit note\n');
  await expect(hooks.test.getByTestId('hook-test-stdout')).toHaveText('(empty)');
  expect(lines()).toBe(1);
  // The test run is recorded with the others.
  await expect(hooks.runs.first()).toContainText(HOOK);
  // Another event gets its own sample payload.
  await hooks.test.getByTestId('hook-test-event').selectOption('agent_stop');
  await expect(hooks.test.getByTestId('hook-test-payload')).toHaveValue(/"event": "agent_stop"/);
});

test('a new hook from a template is written, executable, and listed', async ({ app }) => {
  const hooks = new HooksPage(app);
  await hooks.open();
  await app.getByTestId('new-hook').click();
  await app.getByTestId('new-hook-template').selectOption('follow-up');
  await app.getByTestId('new-hook-name').fill('e2e-follow');
  await app.getByTestId('new-hook-scope').selectOption('user');
  await app.getByTestId('new-hook-create').click();
  try {
    await expect(hooks.row('executable:user:e2e-follow')).toContainText('agent_stop');
  } finally {
    rmSync(join(hooksDir(), 'e2e-follow'), { force: true });
  }
});

test('2,000 hook runs render virtualized', async ({ app }) => {
  const db = new DatabaseSync(join(e2eEnv('WB_HOME'), 'workbench.db'));
  try {
    const insert = db.prepare(
      `INSERT INTO hook_runs (hook_id, hook_name, event, started_at, duration_ms, payload, stdout, stderr, exit_code, timed_out, decision) VALUES (?, ?, 'before_tool_call', ?, 12, '{}', '', '', 0, 0, 'allow')`,
    );
    db.exec('BEGIN');
    for (let i = 0; i < 2000; i++) insert.run('executable:user:bulk', `bulk-${i}`, Date.now() - i * 1000);
    db.exec('COMMIT');
  } finally {
    db.close();
  }
  const hooks = new HooksPage(app);
  await hooks.open();
  await expect(app.getByTestId('hook-runs')).toBeVisible();
  await expect(hooks.panel.getByText(/\(\d{4,}\)/)).toBeVisible();
  await expect(hooks.runs.first()).toBeVisible();
  expect(await hooks.runs.count()).toBeLessThan(60);
  await app.getByTestId('hook-runs').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(hooks.runs.last()).toContainText('bulk-1999');
  expect(await hooks.runs.count()).toBeLessThan(60);
});

test("an agent's frontmatter hooks are listed with the agent whose runs they take part in", async ({
  app,
}) => {
  const dir = join(e2eEnv('WB_HOME'), 'agents');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'e2e-auditor.md');
  writeFileSync(
    file,
    [
      '---',
      'name: e2e-auditor',
      'description: Audits',
      'hooks:',
      '  PreToolUse:',
      '    - matcher: Bash',
      '      hooks:',
      '        - type: command',
      '          command: "exit 0"',
      '---',
      'Audit.',
      '',
    ].join('\n'),
  );
  try {
    const hooks = new HooksPage(app);
    await hooks.open();
    const row = hooks.row(`claude:${file}#PreToolUse/0/0`);
    await expect(row.getByTestId('hook-agent')).toHaveText('agent e2e-auditor');
    await expect(row).toContainText('[Bash]');
  } finally {
    rmSync(file, { force: true });
  }
});

test("a skill's frontmatter hooks are listed with their skill, a once handler marked", async ({
  app,
}) => {
  const dir = join(e2eEnv('WB_HOME'), 'skills', 'e2e-fmt');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'SKILL.md');
  writeFileSync(
    file,
    [
      '---',
      'name: e2e-fmt',
      'description: Formats',
      'hooks:',
      '  PostToolUse:',
      '    - matcher: Write',
      '      hooks:',
      '        - command: "exit 0"',
      '          once: true',
      '---',
      'Format.',
      '',
    ].join('\n'),
  );
  try {
    const hooks = new HooksPage(app);
    await hooks.open();
    const row = hooks.row(`claude:${realpathSync(file)}#PostToolUse/0/0`);
    await expect(row.getByTestId('hook-skill')).toHaveText('skill e2e-fmt · once');
    await expect(row).toContainText('[Write]');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

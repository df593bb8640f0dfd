import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, e2eEnv } from './fixtures.ts';
import { TracePage } from './pages/trace-page.ts';

// An executable user hook (no trust needed) that approves every tool call and logs to stderr.
const HOOK = 'trace-probe';

test.beforeAll(() => {
  const dir = join(e2eEnv('WB_HOME'), 'hooks');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, HOOK);
  writeFileSync(
    file,
    `#!/bin/sh\nif [ "$1" = hook ]; then echo before_tool_call; exit 0; fi\ncat >/dev/null\necho 'probe: checked' >&2\necho '{}'\n`,
  );
  chmodSync(file, 0o755);
});

test.afterAll(() => {
  rmSync(join(e2eEnv('WB_HOME'), 'hooks', HOOK), { force: true });
});

test('a hook span nests under its tool call and the drawer shows the stored payload, stdout and stderr', async ({
  app,
  fake,
  chat,
}) => {
  const trace = new TracePage(app);
  await fake.script([
    { toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }] },
    { text: 'Read it.' },
  ]);
  await trace.open();
  await chat.sendNew('Read the readme');
  await chat.waitIdle();
  const hook = trace.rowsOfKind('hook').filter({ hasText: HOOK });
  await expect(hook).toHaveCount(1);
  // Tree order: the hook row follows its tool row.
  const kinds = await trace.rows.evaluateAll((rows) =>
    rows.map((r) => r.getAttribute('data-kind')),
  );
  expect(kinds.indexOf('hook')).toBe(kinds.indexOf('tool') + 1);
  // The tool's self time excludes its hook child.
  await trace.rowsOfKind('tool').click();
  await expect(app.getByTestId('trace-drawer-self')).toContainText('outside its 1 child span');
  await app.getByTestId('trace-filter-hook').selectOption(HOOK);
  await expect(trace.rowsOfKind('llm')).toHaveCount(0);
  await hook.click();
  await expect(app.getByTestId('trace-hook-payload')).toContainText('README.md');
  await expect(app.getByTestId('trace-hook-payload')).toContainText('before_tool_call');
  await expect(app.getByTestId('trace-hook-stdout')).toHaveText('{}');
  await expect(app.getByTestId('trace-hook-run')).toContainText('probe: checked');
});

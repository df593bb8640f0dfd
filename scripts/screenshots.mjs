// Renders the main views in headless Chromium against `workbench serve` with the scripted fake LLM and
// writes PNGs to docs/screenshots/. Run with `npm run screenshots` (builds first).
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { startStack } from '../test/e2e/stack.ts';

const root = resolve(import.meta.dirname, '..');
const outDir = join(root, 'docs', 'screenshots');
mkdirSync(outDir, { recursive: true });
const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

async function script(stack, turns) {
  const origin = new URL(stack.fakeURL).origin;
  const r = await fetch(`${origin}/__control/script`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ script: turns }) });
  if (!r.ok) throw new Error(`fake control: ${r.status}`);
}

async function send(page, text) {
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-input').press('Enter');
}

const idle = (page) => page.getByTestId('run-status').waitFor({ state: 'detached', timeout: 15_000 });

const todos = (states) => ({
  name: 'write_todos',
  args: { todos: ['Read the failing test', 'Find the off-by-one in paginate()', 'Fix and add a regression test', 'Run the suite'].map((title, i) => ({ id: String(i + 1), title, status: states[i] })) },
});

const answer = [
  'Found it. `paginate()` used `<=` where it needed `<`, so the last page repeated one item.',
  '',
  '```ts',
  'export function paginate<T>(items: T[], page: number, size: number): T[] {',
  '  const start = page * size;',
  '  return items.slice(start, start + size); // was: start + size + 1',
  '}',
  '```',
  '',
  '| Check | Result |',
  '| --- | --- |',
  '| unit tests | 42 passed |',
  '| lint | clean |',
  '',
  'See the [slice docs](https://developer.mozilla.org/docs/Web/JavaScript/Reference/Global_Objects/Array/slice) for details.',
].join('\n');

async function main() {
  const stack = await startStack();
  const browser = await chromium.launch(launchOptions);
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(stack.url);
    await page.getByTestId('app').waitFor();

    // 1. A finished run: todos, parallel tools, markdown with code and a table.
    await script(stack, [
      { toolCalls: [todos(['in_progress', 'pending', 'pending', 'pending'])] },
      { text: 'Let me look at the code and the test.', toolCalls: [{ name: 'ls', args: { path: '.' } }, { name: 'read_file', args: { path: 'README.md' } }, { name: 'grep', args: { pattern: 'console' } }] },
      { toolCalls: [todos(['done', 'done', 'in_progress', 'pending'])] },
      { text: answer, chunkSize: 24, delayMs: 5, usage: { input_tokens: 3120, output_tokens: 214 } },
    ]);
    await send(page, 'The last page of the results list repeats an item. Can you find and fix it?');
    await idle(page);
    await page.getByTestId('tab-todos').click();
    await page.locator('[data-testid="tool-card"][data-tool="read_file"] [data-testid="tool-toggle"]').click();
    await page.getByTestId('message-list').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(outDir, 'chat-light.png') });

    // 2. An approval prompt for a command.
    await script(stack, [{ text: 'I will run the test suite.', toolCalls: [{ name: 'execute', args: { command: 'npm test -- --run paginate' } }] }, { text: 'Understood — I did not run it. You can run `npm test` yourself when ready.' }]);
    await page.getByTestId('new-thread').click();
    await send(page, 'Run the tests for paginate');
    await page.getByTestId('approval-card').waitFor();
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(outDir, 'approval.png') });
    await page.getByTestId('approve-deny').click();
    await idle(page);

    // 3. Settings.
    await page.getByTestId('tab-settings').click();
    await page.getByTestId('settings-test').click();
    await page.getByTestId('connection-result').waitFor();
    await page.screenshot({ path: join(outDir, 'settings.png') });

    // 4. Dark theme on the first thread.
    await page.getByTestId('settings-theme').selectOption('dark');
    await page.getByTestId('settings-save').click();
    await page.getByTestId('thread-item').last().click();
    await page.getByTestId('tab-todos').click();
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(outDir, 'chat-dark.png') });
    await context.close();
  } finally {
    await browser.close();
    await stack.stop();
  }

  // 5. First start without a provider: onboarding.
  const fresh = await startStack({ provider: { preset: 'openai', base_url: 'https://api.openai.com/v1', model: 'gpt-4o-mini' } });
  const browser2 = await chromium.launch(launchOptions);
  try {
    const page = await browser2.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(fresh.url);
    await page.getByTestId('onboarding').waitFor();
    await page.waitForTimeout(1200);
    await page.screenshot({ path: join(outDir, 'onboarding.png') });
  } finally {
    await browser2.close();
    await fresh.stop();
  }
  console.log(`screenshots written to ${outDir}`);
}

// --- trace view (owned by the trace timeline; kept apart from main()) -------------------------------
// Its own stack with a user hook, so `SCREENSHOTS_ONLY=trace` can render it alone.
async function traceScreenshot() {
  const { chmodSync, mkdirSync: mkdir, writeFileSync } = await import('node:fs');
  const stack = await startStack();
  const hooks = join(stack.home, 'hooks');
  mkdir(hooks, { recursive: true });
  const guard = join(hooks, 'guard');
  writeFileSync(guard, '#!/bin/sh\ncase "$1" in\n  hook) echo before_tool_call ;;\n  run) cat >/dev/null; sleep 0.2; echo \'{"decision":"approve"}\' ;;\nesac\n');
  chmodSync(guard, 0o755);
  const browser = await chromium.launch(launchOptions);
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    await page.goto(stack.url);
    await page.getByTestId('app').waitFor();
    await script(stack, [
      { text: 'Let me look around first.', chunkSize: 4, delayMs: 20, toolCalls: [{ name: 'ls', args: { path: '.' } }, { name: 'read_file', args: { path: 'README.md' } }, { name: 'grep', args: { pattern: 'console' } }] },
      { toolCalls: [{ name: 'read_file', args: { path: 'index.js' } }], chunkSize: 8, delayMs: 30 },
      { text: answer, chunkSize: 12, delayMs: 15, usage: { input_tokens: 3120, output_tokens: 214 } },
    ]);
    await page.getByTestId('tab-trace').click();
    await send(page, 'Where does the app print its greeting?');
    await page.locator('[data-testid="trace-run"][data-open="false"]').waitFor({ timeout: 20_000 });
    await page.locator('[data-testid="trace-row"][data-kind="hook"]').nth(1).click();
    await page.getByTestId('trace-hook-payload').waitFor();
    await page.getByTestId('trace-drawer').waitFor();
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(outDir, 'trace.png') });
  } finally {
    await browser.close();
    await stack.stop();
  }
}

// --- memory, skills and hooks panels (owned by those panels; kept apart from main()) ------------------
// Its own stack with memory files, skills and hooks, so `SCREENSHOTS_ONLY=panels` renders them alone.
async function panelsScreenshots() {
  const { chmodSync, mkdirSync: mkdir, writeFileSync } = await import('node:fs');
  const stack = await startStack();
  const write = (path, text, mode) => {
    mkdir(resolve(path, '..'), { recursive: true });
    writeFileSync(path, text);
    if (mode) chmodSync(path, mode);
  };
  write(join(stack.home, 'AGENTS.md'), '# My preferences\n\n- Answer briefly; show code over prose.\n- Use pnpm, never npm, in my projects.\n');
  write(
    join(stack.workspace, 'AGENTS.md'),
    '# Demo project\n\n## Conventions\n- TypeScript, 2-space indent, single quotes.\n- Tests live next to the code as `*.test.ts`.\n\n## Decisions\n- 2026-11-02: pagination is zero-based (see `paginate()`).\n- Logging goes through `log()` in `src/log.ts`, never `console.log`.\n',
  );
  const skill = (dir, name, description, body) => write(join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}`);
  const wsSkills = join(stack.workspace, '.workbench', 'skills');
  skill(wsSkills, 'release-notes', 'Write release notes from the git log since the last tag. Use when the user asks for a changelog.', '# Release notes\n\n1. Run `git describe --tags --abbrev=0` to find the last tag.\n2. Read `git log <tag>..HEAD --oneline`.\n3. Group the commits under Added / Changed / Fixed.\n');
  skill(join(stack.home, 'skills'), 'csv-analyzer', 'Analyze CSV files and summarize their columns. Use when the user asks about a .csv file.', '# CSV analyzer\n\nRead the header first, then sample 20 rows.\n');
  write(join(wsSkills, 'draft', 'SKILL.md'), '---\nname: draft\n---\n# unfinished\n');
  const hooks = join(stack.home, 'hooks');
  write(join(hooks, '10-guard'), '#!/bin/sh\ncase "$1" in\n  hook) echo before_tool_call ;;\n  run) payload=$(cat); case "$payload" in *"rm -rf"*) echo \'{"blocked": true, "reason": "rm -rf is not allowed"}\' ;; *) echo \'{"blocked": false}\' ;; esac ;;\nesac\n', 0o755);
  write(join(hooks, '20-audit'), '#!/bin/sh\ncase "$1" in\n  hook) echo after_tool_call ;;\n  run) cat >/dev/null; echo "logged" >&2 ;;\nesac\n', 0o755);
  write(join(stack.workspace, '.workbench', 'hooks', 'format-check'), '#!/bin/sh\necho agent_stop\n', 0o755);
  const browser = await chromium.launch(launchOptions);
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    await page.goto(stack.url);
    await page.getByTestId('app').waitFor();
    // The folder brings hooks, skills and AGENTS.md: leave it untrusted for now (the hooks panel shows that).
    await page.getByTestId('trust-prompt').waitFor();
    await page.getByTestId('trust-prompt').getByRole('button').last().click();
    await script(stack, [
      { text: 'Let me check.', toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }, { name: 'grep', args: { pattern: 'console' } }] },
      { text: 'The greeting is printed by `index.js` with `console.log`. Per AGENTS.md it should use `log()` instead.' },
    ]);
    await send(page, 'Where does the app print its greeting?');
    await idle(page);

    // Memory: the workspace AGENTS.md with an unsaved edit.
    await page.getByTestId('tab-memory').click();
    await page.getByTestId('memory-tab-workspace').click();
    const lines = page.getByTestId('memory-pane-workspace').locator('.view-lines');
    await lines.waitFor();
    await lines.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.insertText('- Prefer small pure functions; no classes for data.\n');
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(outDir, 'memory.png') });

    // Skills: the list with a problem, one skill open in the editor.
    await page.getByTestId('tab-skills').click();
    await page.locator('[data-testid="skill-row"][data-name="release-notes"] [data-testid="skill-open"]').click();
    await page.getByTestId('skill-editor').locator('.view-lines').waitFor();
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(outDir, 'skills.png') });

    // Hooks: the pipeline, an untrusted workspace hook, a Test result and the recent runs.
    await page.getByTestId('tab-hooks').click();
    await page.locator('[data-testid="hook-row"][data-id="executable:user:10-guard"] [data-testid="hook-test-open"]').click();
    await page.getByTestId('hook-test-payload').waitFor();
    await page.waitForFunction(() => globalThis.document.querySelector('[data-testid="hook-test-payload"]')?.value.includes('"command"'));
    const payload = await page.getByTestId('hook-test-payload').inputValue();
    await page.getByTestId('hook-test-payload').fill(payload.replace('"ls"', '"rm -rf build"'));
    await page.getByTestId('hook-test-run').click();
    await page.getByTestId('hook-test-result').waitFor();
    await page.getByTestId('hook-test-payload').evaluate((el) => (el.rows = 5));
    await page.getByTestId('hook-test-stderr').scrollIntoViewIfNeeded();
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(outDir, 'hooks.png') });
  } finally {
    await browser.close();
    await stack.stop();
  }
}

const only = process.env.SCREENSHOTS_ONLY;
if (!only) await main();
if (!only || only === 'trace') await traceScreenshot();
if (!only || only === 'panels') await panelsScreenshots();

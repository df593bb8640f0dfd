/**
 * MCP elicitation: the demo MCP server's tools ask the user while they run (a form, a page to
 * open), the chat shows a card, and the answer reaches the server, whose tool output says what it got.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, e2eEnv, type Turn } from './fixtures.ts';
import type { Page } from '@playwright/test';
import type { ChatPage } from './pages/chat-page.ts';

const DEMO_SERVER = resolve(import.meta.dirname, '../fixtures/mcp/demo-server.mjs');
const settingsFile = () => join(e2eEnv('WB_HOME'), 'settings.json');

/** Adds (or removes) the demo server in the user's settings; read-only, so its calls need no approval. */
function configureDemoServer(on: boolean): void {
  const settings = JSON.parse(readFileSync(settingsFile(), 'utf8')) as Record<string, unknown>;
  const servers = { ...(settings.mcp_servers as Record<string, unknown> | undefined) };
  const overrides = { ...(settings.mcp_overrides as Record<string, unknown> | undefined) };
  delete servers.demo;
  delete overrides.demo;
  if (on) {
    servers.demo = { command: process.execPath, args: [DEMO_SERVER] };
    overrides.demo = { read_only: true };
  }
  writeFileSync(
    settingsFile(),
    JSON.stringify({ ...settings, mcp_servers: servers, mcp_overrides: overrides }, null, 2),
  );
}

test.beforeAll(() => configureDemoServer(true));
test.afterAll(() => configureDemoServer(false));
// A question left open would take the next test's: the server asks through its oldest call.
test.afterEach(async ({ app }) => {
  const stop = app.getByTestId('cancel-button');
  if (await stop.isVisible()) await stop.click();
});

const callTool = (tool: string): Turn[] => [
  { toolCalls: [{ name: `mcp__demo__${tool}`, args: {} }] },
  { text: `The ${tool} call is over.` },
];

/** The serious or critical axe violations of the question's card. */
async function seriousCardViolations(app: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page: app })
    .include('[data-testid="elicitation-card"]')
    .analyze();
  return axe.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id);
}

/** The output of the demo tool's card, once the call is over. */
async function expectOutput(chat: ChatPage, tool: string, text: string): Promise<void> {
  const card = chat.toolCard(`mcp__demo__${tool}`);
  await expect(card).toHaveAttribute('data-status', 'done');
  await card.getByTestId('tool-toggle').click();
  await expect(card.getByTestId('tool-output')).toContainText(text);
  await expect(chat.assistant.last()).toContainText(`The ${tool} call is over.`);
}

test('fill in a form: a problem keeps it from being sent, a fixed form reaches the server', async ({
  fake,
  chat,
  app,
}) => {
  test.setTimeout(90_000); // the first call starts the MCP server, and axe is slow
  await fake.script(callTool('signup'));
  await chat.sendNew('Sign me up');
  const card = app.getByTestId('elicitation-card');
  await expect(card).toBeVisible();
  await expect(card).toContainText('MCP server demo asks');
  await expect(card.getByTestId('elicitation-message')).toHaveText('Who is signing up?');
  await expect(chat.toolCard('mcp__demo__signup').getByTestId('tool-asking')).toBeVisible();
  // The first field takes focus; labels are bound to their inputs.
  await expect(card.getByTestId('elicitation-field-name')).toBeFocused();
  await expect(card.getByLabel('Your name')).toHaveAttribute(
    'data-testid',
    'elicitation-field-name',
  );
  await expect(card.getByTestId('elicitation-field-newsletter')).not.toBeChecked();
  expect(await seriousCardViolations(app)).toEqual([]);

  await card.getByLabel('Your name').fill('A');
  await card.getByTestId('elicitation-submit').click();
  await expect(card.getByTestId('elicitation-problem-name')).toHaveText(
    'Your name must be at least 2 characters',
  );
  await expect(card.getByTestId('elicitation-problem-plan')).toHaveText('Plan is required');
  await expect(card.getByTestId('elicitation-field-name')).toBeFocused();
  await expect(card.getByTestId('elicitation-field-name')).toHaveAttribute('aria-invalid', 'true');
  await expect(chat.toolCard('mcp__demo__signup')).toHaveAttribute('data-status', 'running');

  await card.getByTestId('elicitation-field-name').fill('Ada');
  await expect(card.getByTestId('elicitation-problem-name')).toHaveCount(0);
  await card.getByTestId('elicitation-field-email').fill('ada@example.test');
  await card.getByTestId('elicitation-field-age').fill('36');
  await card.getByTestId('elicitation-field-plan').selectOption({ label: 'Pro' });
  await card.getByTestId('elicitation-field-newsletter').check();
  await card.getByTestId('elicitation-submit').click();

  await expect(card).toHaveCount(0);
  await expect(app.getByTestId('elicitation-outcome')).toContainText(
    'MCP server demo asked: Who is signing up? — You answered',
  );
  await expectOutput(
    chat,
    'signup',
    'signup accept: {"name":"Ada","email":"ada@example.test","age":36,"plan":"pro","newsletter":true}',
  );
});

test('decline a form: the server hears no', async ({ fake, chat, app }) => {
  await fake.script(callTool('signup'));
  await chat.sendNew('Sign me up, then decline');
  await app.getByTestId('elicitation-decline').click();
  await expect(app.getByTestId('elicitation-card')).toHaveCount(0);
  await expect(app.getByTestId('elicitation-outcome')).toContainText('You declined');
  await expectOutput(chat, 'signup', 'signup decline: {}');
});

test('Esc dismisses the question, not the run', async ({ fake, chat, app }) => {
  await fake.script(callTool('signup'));
  await chat.sendNew('Sign me up, then dismiss');
  await expect(app.getByTestId('elicitation-field-name')).toBeFocused();
  await app.keyboard.press('Escape');
  await expect(app.getByTestId('elicitation-outcome')).toContainText('You cancelled');
  await expectOutput(chat, 'signup', 'signup cancel: {}');
  await expect(app.getByTestId('notice-cancelled')).toHaveCount(0);
});

test('a page to open: the whole address shows; opening it is the answer, not opening it is none', async ({
  fake,
  chat,
  app,
  context,
}) => {
  const url = 'https://login.example.test/authorize?client=demo';
  await fake.script(callTool('login'));
  await chat.sendNew('Log me in');
  const card = app.getByTestId('elicitation-card');
  await expect(card.getByTestId('elicitation-message')).toHaveText('Sign in to Demo');
  await expect(card.getByTestId('elicitation-url')).toHaveText(url);
  await expect(card).toContainText('Opens a page on login.example.test');
  await expect(card.getByTestId('elicitation-open')).toHaveCount(0);
  // Outside Electron the page asks before it opens a link; said no to, nothing is answered.
  const answerDialog = (accept: boolean) =>
    new Promise<string>((done) =>
      app.once(
        'dialog',
        (d) => void (accept ? d.accept() : d.dismiss()).then(() => done(d.message())),
      ),
    );
  const before = app.url();
  let asked = answerDialog(false);
  await card.getByTestId('elicitation-submit').click();
  expect(await asked).toContain(url);
  await expect(card.getByTestId('elicitation-submit')).toBeEnabled();
  await expect(app.getByTestId('elicitation-outcome')).toHaveCount(0);
  // Said yes to, the page opens in a new window (the app's never navigates) and the server goes on.
  await context.route('https://login.example.test/**', (route) =>
    route.fulfill({ body: 'signed in' }),
  );
  asked = answerDialog(true);
  const opened = context.waitForEvent('page');
  await card.getByTestId('elicitation-submit').click();
  await asked;
  expect((await opened).url()).toBe(url);
  expect(app.url()).toBe(before);
  await expect(app.getByTestId('elicitation-outcome')).toContainText(
    'MCP server demo asked: Sign in to Demo — You answered',
  );
  await expectOutput(chat, 'login', 'login accept');
});

test('a call the server refuses until a page is finished: Done tries it again', async ({
  fake,
  chat,
  app,
}) => {
  await fake.script(callTool('files'));
  await chat.sendNew('List my files');
  const card = app.getByTestId('elicitation-card');
  await expect(card.getByTestId('elicitation-message')).toHaveText('Connect your Example account');
  await expect(card.getByTestId('elicitation-url-note')).toContainText(
    'The server needs it finished before it runs the tool: Done tries the call again.',
  );
  await expect(card.getByTestId('elicitation-open')).toBeEnabled();
  await expect(card.getByTestId('elicitation-submit')).toHaveText('Done');
  expect(await seriousCardViolations(app)).toEqual([]);
  await card.getByTestId('elicitation-submit').click();
  await expect(app.getByTestId('elicitation-outcome')).toContainText(
    'MCP server demo asked: Connect your Example account — You answered',
  );
  await expectOutput(chat, 'files', 'files: a.txt b.txt');
});

test('a pending form survives a page reload and is sent with Enter', async ({
  fake,
  chat,
  app,
}) => {
  await fake.script(callTool('signup'));
  await chat.sendNew('Sign me up after a reload');
  await expect(app.getByTestId('elicitation-card')).toBeVisible();
  await app.reload();
  const card = app.getByTestId('elicitation-card');
  await expect(card).toContainText('Who is signing up?');
  await card.getByTestId('elicitation-field-plan').selectOption('free');
  await card.getByTestId('elicitation-field-name').fill('Grace');
  await card.getByTestId('elicitation-field-name').press('Enter');
  await expect(app.getByTestId('elicitation-outcome')).toContainText('You answered');
  await expectOutput(
    chat,
    'signup',
    'signup accept: {"name":"Grace","plan":"free","newsletter":false}',
  );
});

/** Playwright fixtures: the scripted fake LLM control, page objects, and console/page-error capture. */
import { test as base, expect, type Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page.ts';
import { SidebarPage } from './pages/sidebar-page.ts';
import { SettingsPage } from './pages/settings-page.ts';
import { TodosPage } from './pages/todos-page.ts';

/** One scripted answer of the fake model (test/helpers/fake-openai-script.ts). */
export interface Turn {
  text?: string;
  toolCalls?: Array<{ name: string; args?: Record<string, unknown>; rawArgs?: string }>;
  delayMs?: number;
  chunkSize?: number;
  error?: { status: number };
  usage?: { input_tokens?: number; output_tokens?: number } | null;
}

export interface FakeLlm {
  script(turns: Turn[]): Promise<void>;
  requests(): Promise<Array<{ path: string; body: unknown }>>;
}

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: the e2e global setup did not run`);
  return v;
};

interface Fixtures {
  fake: FakeLlm;
  app: Page;
  chat: ChatPage;
  sidebar: SidebarPage;
  settings: SettingsPage;
  todos: TodosPage;
  pageErrors: string[];
}

export const test = base.extend<Fixtures>({
  fake: async ({ request }, use) => {
    const origin = new URL(env('WB_FAKE_URL')).origin;
    await request.post(`${origin}/__control/reset`);
    await use({
      async script(turns) {
        const r = await request.post(`${origin}/__control/script`, { data: { script: turns } });
        expect(r.ok()).toBe(true);
      },
      async requests() {
        return (await request.get(`${origin}/__control/requests`)).json();
      },
    });
  },
  pageErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await use(errors);
  },
  app: async ({ page, pageErrors }, use) => {
    void pageErrors;
    await page.goto(env('WB_URL'));
    // Start-up includes the trust check: a test that writes AGENTS.md must not race the trust prompt.
    await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
    await use(page);
  },
  chat: async ({ app }, use) => use(new ChatPage(app)),
  sidebar: async ({ app }, use) => use(new SidebarPage(app)),
  settings: async ({ app }, use) => use(new SettingsPage(app)),
  todos: async ({ app }, use) => use(new TodosPage(app)),
});

export { expect };
export const e2eEnv = env;

import { expect, type Locator, type Page } from '@playwright/test';
import { setMonacoText } from './memory-monaco.ts';

/** The Memory tab: AGENTS.md editors (user / workspace) and the effective context. */
export class MemoryPage {
  readonly page: Page;
  readonly panel: Locator;
  readonly dirty: Locator;
  readonly save: Locator;
  readonly conflict: Locator;
  readonly external: Locator;

  constructor(page: Page) {
    this.page = page;
    this.panel = page.getByTestId('memory-panel');
    this.dirty = page.getByTestId('memory-dirty');
    this.save = page.getByTestId('memory-save');
    this.conflict = page.getByTestId('conflict');
    this.external = page.getByTestId('memory-external');
  }

  async open(scope: 'workspace' | 'user' | 'effective' = 'workspace'): Promise<void> {
    await this.page.getByTestId('tab-memory').click();
    await this.page.getByTestId(`memory-tab-${scope}`).click();
  }

  pane(scope: 'workspace' | 'user'): Locator {
    return this.page.getByTestId(`memory-pane-${scope}`);
  }

  async type(scope: 'workspace' | 'user', text: string): Promise<void> {
    await setMonacoText(this.page, this.pane(scope), text);
    await expect(this.dirty).toBeVisible();
  }

  /** Monaco's model text (what is on screen), read through the rendered lines. */
  async text(scope: 'workspace' | 'user'): Promise<string> {
    return (await this.pane(scope).locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
  }
}

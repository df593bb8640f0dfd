import { type Locator, type Page } from '@playwright/test';

/** The Hooks tab: the pipeline, switches, Test, recent runs. */
export class HooksPage {
  readonly page: Page;
  readonly panel: Locator;
  readonly rows: Locator;
  readonly runs: Locator;
  readonly test: Locator;

  constructor(page: Page) {
    this.page = page;
    this.panel = page.getByTestId('hooks-panel');
    this.rows = page.getByTestId('hook-row');
    this.runs = page.getByTestId('hook-run');
    this.test = page.getByTestId('hook-test');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('tab-hooks').click();
  }

  row(id: string): Locator {
    return this.page.locator(`[data-testid="hook-row"][data-id="${id}"]`);
  }

  switch(id: string): Locator {
    return this.row(id).getByTestId('hook-enabled');
  }
}

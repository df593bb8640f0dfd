import type { Locator, Page } from '@playwright/test';

/** The sidebar: workspace, new thread, search, thread list. */
export class SidebarPage {
  readonly page: Page;
  readonly threads: Locator;
  readonly search: Locator;

  constructor(page: Page) {
    this.page = page;
    this.threads = page.getByTestId('thread-item');
    this.search = page.getByTestId('thread-search');
  }

  active(): Locator {
    return this.page.locator('[data-testid="thread-item"][aria-current="true"]');
  }
}

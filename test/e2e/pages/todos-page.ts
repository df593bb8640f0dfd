import type { Locator, Page } from '@playwright/test';

/** The Todos tab of the dock. */
export class TodosPage {
  readonly page: Page;
  readonly items: Locator;
  readonly progress: Locator;

  constructor(page: Page) {
    this.page = page;
    this.items = page.getByTestId('todo-item');
    this.progress = page.getByTestId('todo-progress');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('tab-todos').click();
  }
}

import { expect, type Locator, type Page } from '@playwright/test';

/** The chat column: composer, messages, tool cards, approvals. */
export class ChatPage {
  readonly page: Page;
  readonly input: Locator;
  readonly assistant: Locator;
  readonly user: Locator;
  readonly toolCards: Locator;
  readonly approval: Locator;

  constructor(page: Page) {
    this.page = page;
    this.input = page.getByTestId('composer-input');
    this.assistant = page.getByTestId('message-assistant');
    this.user = page.getByTestId('message-user');
    this.toolCards = page.getByTestId('tool-card');
    this.approval = page.getByTestId('approval-card');
  }

  /** Starts a new thread and sends `text` with Enter. */
  async sendNew(text: string): Promise<void> {
    await this.page.getByTestId('new-thread').click();
    await this.send(text);
  }

  async send(text: string): Promise<void> {
    await this.input.fill(text);
    await this.input.press('Enter');
  }

  toolCard(name: string): Locator {
    return this.page.locator(`[data-testid="tool-card"][data-tool="${name}"]`);
  }

  async waitIdle(): Promise<void> {
    await expect(this.page.getByTestId('run-status')).toHaveCount(0);
  }
}

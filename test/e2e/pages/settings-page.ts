import type { Locator, Page } from '@playwright/test';

/** The Settings tab of the dock. */
export class SettingsPage {
  readonly page: Page;
  readonly preset: Locator;
  readonly baseUrl: Locator;
  readonly model: Locator;
  readonly apiKey: Locator;
  readonly testButton: Locator;
  readonly result: Locator;
  readonly save: Locator;

  constructor(page: Page) {
    this.page = page;
    this.preset = page.getByTestId('settings-preset');
    this.baseUrl = page.getByTestId('settings-base-url');
    this.model = page.getByTestId('settings-model');
    this.apiKey = page.getByTestId('settings-api-key');
    this.testButton = page.getByTestId('settings-test');
    this.result = page.getByTestId('connection-result');
    this.save = page.getByTestId('settings-save');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('tab-settings').click();
  }
}

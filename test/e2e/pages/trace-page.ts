import { expect, type Locator, type Page } from '@playwright/test';

/** The Trace tab of the dock. */
export class TracePage {
  readonly page: Page;
  readonly panel: Locator;
  readonly runs: Locator;
  readonly rows: Locator;
  readonly drawer: Locator;
  readonly count: Locator;
  readonly timeline: Locator;

  constructor(page: Page) {
    this.page = page;
    this.panel = page.getByTestId('trace-panel');
    this.runs = page.getByTestId('trace-run');
    this.rows = page.getByTestId('trace-row');
    this.drawer = page.getByTestId('trace-drawer');
    this.count = page.getByTestId('trace-count');
    this.timeline = page.getByTestId('trace-timeline');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('tab-trace').click();
    await expect(this.panel).toBeVisible();
  }

  rowsOfKind(kind: 'agent' | 'llm' | 'tool' | 'hook'): Locator {
    return this.page.locator(`[data-testid="trace-row"][data-kind="${kind}"]`);
  }

  /** Clicks Export OTLP / Perfetto and returns the download. */
  async export(format: 'otlp' | 'chrome') {
    const download = this.page.waitForEvent('download');
    await this.page.getByTestId(`trace-export-${format}`).click();
    return download;
  }

  /** Imports a trace file through the panel's file input. */
  async import(name: string, content: string): Promise<void> {
    await this.page
      .getByTestId('trace-import-input')
      .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(content) });
  }
}

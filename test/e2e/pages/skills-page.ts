import { type Locator, type Page } from '@playwright/test';
import { setMonacoText } from './memory-monaco.ts';

/** The Skills tab: list, new-skill form, SKILL.md editor. */
export class SkillsPage {
  readonly page: Page;
  readonly panel: Locator;
  readonly rows: Locator;
  readonly editor: Locator;
  readonly problems: Locator;
  readonly catalogLine: Locator;

  constructor(page: Page) {
    this.page = page;
    this.panel = page.getByTestId('skills-panel');
    this.rows = page.getByTestId('skill-row');
    this.editor = page.getByTestId('skill-editor');
    this.problems = page.getByTestId('skill-problems');
    this.catalogLine = page.getByTestId('skill-catalog-line');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('tab-skills').click();
  }

  row(name: string): Locator {
    return this.page.locator(`[data-testid="skill-row"][data-name="${name}"]`);
  }

  async create(
    name: string,
    description: string,
    scope: 'workspace' | 'user' = 'workspace',
  ): Promise<void> {
    await this.page.getByTestId('new-skill').click();
    await this.page.getByTestId('new-skill-name').fill(name);
    await this.page.getByTestId('new-skill-description').fill(description);
    await this.page.getByTestId('new-skill-scope').selectOption(scope);
    await this.page.getByTestId('new-skill-create').click();
  }

  async type(text: string): Promise<void> {
    await setMonacoText(this.page, this.editor, text);
  }
}

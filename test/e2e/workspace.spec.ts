import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, e2eEnv } from './fixtures.ts';

test('opening a folder that brings hooks and AGENTS.md asks for trust, kept outside the folder', async ({ app }) => {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'wb-e2e-trust-')));
  writeFileSync(join(folder, 'AGENTS.md'), '# Project rules\n');
  mkdirSync(join(folder, '.workbench', 'hooks'), { recursive: true });
  writeFileSync(join(folder, '.workbench', 'hooks', 'guard'), '#!/bin/sh\n', { mode: 0o755 });
  try {
    await app.getByTestId('open-folder').click();
    await app.getByLabel('Folder path').fill(folder);
    await app.getByLabel('Folder path').press('Enter');
    const prompt = app.getByTestId('trust-prompt');
    await expect(prompt).toBeVisible();
    await expect(prompt).toContainText('AGENTS.md');
    await expect(prompt).toContainText('Hook programs');
    await expect(app.getByTestId('workspace-path')).toHaveText(folder.split('/').pop()!);
    await prompt.getByRole('button', { name: 'Trust and run its hooks' }).click();
    await expect(prompt).toHaveCount(0);
    const trust = JSON.parse(readFileSync(join(e2eEnv('WB_HOME'), 'trust.json'), 'utf8')) as { workspaces: Record<string, unknown> };
    expect(Object.keys(trust.workspaces)).toContain(folder);
    expect(existsSync(join(folder, 'trust.json'))).toBe(false);
  } finally {
    // Later specs expect the original workspace.
    await app.getByTestId('open-folder').click();
    await app.getByLabel('Folder path').fill(e2eEnv('WB_WORKSPACE'));
    await app.getByLabel('Folder path').press('Enter');
    await expect(app.getByTestId('workspace-path')).toHaveText('workspace');
  }
});

test('a folder path that does not exist is refused with a message', async ({ app }) => {
  await app.getByTestId('open-folder').click();
  await app.getByLabel('Folder path').fill('/no/such/folder/anywhere');
  await app.getByLabel('Folder path').press('Enter');
  await expect(app.getByTestId('banner')).toContainText('not a folder');
  await expect(app.getByTestId('workspace-path')).toHaveText('workspace');
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { webhooksFrom } from '../../../src/main/events/webhook-settings.ts';
import { createSettingsStore } from '../../../src/main/store/index.ts';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

describe('webhooksFrom', () => {
  it('follows the settings file: none, then saved ones, then an edit by hand, then removal', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-webhooks-'));
    homes.push(home);
    const store = createSettingsStore(home);
    const webhooks = webhooksFrom(store);
    expect(webhooks()).toEqual([]);
    await store.update({ webhooks: [{ url: 'http://127.0.0.1:9/a', on: ['run_finalized'] }] });
    expect(webhooks().map((w) => w.url)).toEqual(['http://127.0.0.1:9/a']);
    expect(webhooks()).toBe(webhooks());
    writeFileSync(
      store.path,
      JSON.stringify({ webhooks: [{ url: 'http://127.0.0.1:9/edited-by-hand', on: ['*'] }] }),
    );
    expect(webhooks().map((w) => w.url)).toEqual(['http://127.0.0.1:9/edited-by-hand']);
    rmSync(store.path);
    expect(webhooks()).toEqual([]);
  });
});

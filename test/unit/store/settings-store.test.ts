import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src/shared/types/index.ts';
import { ConflictError, createSettingsStore } from '../../../src/main/store/index.ts';
import { useTempDir } from './helpers.ts';

const tempDir = useTempDir();

describe('SettingsStore', () => {
  it('returns defaults when there is no file', () => {
    const store = createSettingsStore(tempDir());
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(store.diagnostics()).toEqual([]);
  });

  it('deep-merges updates over the file, keeps unknown keys, writes atomically', async () => {
    const home = tempDir();
    const store = createSettingsStore(home);
    writeFileSync(
      store.path,
      JSON.stringify({ provider: { model: 'llama3' }, plugin_x: { a: 1 } }),
    );
    expect(store.get().provider).toEqual({ ...DEFAULT_SETTINGS.provider, model: 'llama3' });
    const next = await store.update({
      provider: { preset: 'ollama' },
      tracing: { otlp_endpoint: 'http://127.0.0.1:4318' },
    });
    expect(next.provider).toEqual({
      preset: 'ollama',
      base_url: DEFAULT_SETTINGS.provider.base_url,
      model: 'llama3',
    });
    expect(next.tracing).toEqual({
      capture_content: false,
      otlp_endpoint: 'http://127.0.0.1:4318',
    });
    const onDisk = JSON.parse(readFileSync(store.path, 'utf8'));
    expect(onDisk).toEqual(next);
    expect(onDisk.plugin_x).toEqual({ a: 1 });
    expect(createSettingsStore(home).get()).toEqual(next);
    // temp + rename leaves no stray temp file behind
    expect(readdirSync(home)).toEqual(['settings.json']);
  });

  it('serialises concurrent updates without losing either', async () => {
    const store = createSettingsStore(tempDir());
    await Promise.all([store.update({ theme: 'dark' }), store.update({ max_iterations: 7 })]);
    expect(store.get()).toMatchObject({ theme: 'dark', max_iterations: 7 });
  });

  it('refuses API key fields anywhere, leaving the file untouched', async () => {
    const store = createSettingsStore(tempDir());
    await store.update({ theme: 'light' });
    const before = readFileSync(store.path, 'utf8');
    await expect(store.update({ provider: { api_key: 'sk-canary' } })).rejects.toThrow(
      /never stores API keys.*provider\.api_key/,
    );
    await expect(store.update({ apiKey: 'sk-canary' })).rejects.toThrow(/apiKey/);
    expect(readFileSync(store.path, 'utf8')).toBe(before);
  });

  it('rejects invalid values', async () => {
    const store = createSettingsStore(tempDir());
    await expect(store.update({ max_iterations: 0 })).rejects.toThrow(
      /invalid settings: max_iterations/,
    );
    await expect(store.update({ approval_mode: 'yolo' })).rejects.toThrow(/approval_mode/);
    expect(existsSync(store.path)).toBe(false);
  });

  it('survives a corrupt file: defaults + diagnostic, bad file kept and backed up', async () => {
    const home = tempDir();
    const store = createSettingsStore(home);
    writeFileSync(store.path, '{"theme": "dark", ');
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(store.diagnostics()[0]).toMatch(
      /not valid JSON.*copy kept at .*settings\.json\.corrupt-/,
    );
    expect(readFileSync(store.path, 'utf8')).toBe('{"theme": "dark", ');
    const backup = readdirSync(home).find((f) => f.startsWith('settings.json.corrupt-'))!;
    await store.update({ theme: 'light' });
    expect(readFileSync(join(home, backup), 'utf8')).toBe('{"theme": "dark", ');
    expect(store.get().theme).toBe('light');
  });

  it('keeps overrides stored under the old seed: ids of executable hooks', () => {
    const home = tempDir();
    const stored = {
      hook_overrides: {
        'seed:workspace:guard': { fail_mode: 'closed' },
        'seed:user:audit': { enabled: false },
        'builtin:memory': { enabled: false },
      },
    };
    writeFileSync(join(home, 'settings.json'), JSON.stringify(stored));
    expect(createSettingsStore(home).get().hook_overrides).toEqual({
      'executable:workspace:guard': { fail_mode: 'closed' },
      'executable:user:audit': { enabled: false },
      'builtin:memory': { enabled: false },
    });
  });

  it('falls back per field for invalid values in the file', () => {
    const store = createSettingsStore(tempDir());
    writeFileSync(store.path, JSON.stringify({ theme: 'neon', max_iterations: 9 }));
    expect(store.get()).toMatchObject({ theme: 'system', max_iterations: 9 });
    expect(store.diagnostics().join('\n')).toMatch(/invalid "theme"/);
  });

  it('detects a file changed on disk between read and write', async () => {
    const store = createSettingsStore(tempDir());
    await store.update({ theme: 'dark' });
    // Simulate an external writer racing the update: the getter is read once by the api-key scan
    // (before the file is read) and again by the merge (after it), where it changes the file.
    let reads = 0;
    const patch = {
      get theme() {
        if (++reads === 2)
          writeFileSync(store.path, JSON.stringify({ theme: 'light', external: true }));
        return 'system';
      },
    };
    await expect(store.update(patch as never)).rejects.toBeInstanceOf(ConflictError);
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({
      theme: 'light',
      external: true,
    });
  });

  it('removes temp files left by a save interrupted before its rename', () => {
    const home = tempDir();
    writeFileSync(join(home, '.settings.json.0a1b2c3d4e5f.tmp'), '{"theme":');
    writeFileSync(join(home, 'settings.json'), '{"theme":"dark"}');
    const store = createSettingsStore(home);
    expect(readdirSync(home)).toEqual(['settings.json']);
    expect(store.get().theme).toBe('dark');
  });

  it('get() follows the file after it was read: none, then saved webhooks, then an edit by hand, then removal', async () => {
    const store = createSettingsStore(tempDir());
    const webhooks = () => store.get().webhooks ?? [];
    expect(webhooks()).toEqual([]);
    await store.update({ webhooks: [{ url: 'http://127.0.0.1:9/a', on: ['run_finalized'] }] });
    expect(webhooks().map((w) => w.url)).toEqual(['http://127.0.0.1:9/a']);
    expect(webhooks()).toEqual(webhooks());
    writeFileSync(
      store.path,
      JSON.stringify({ webhooks: [{ url: 'http://127.0.0.1:9/edited-by-hand', on: ['*'] }] }),
    );
    expect(webhooks().map((w) => w.url)).toEqual(['http://127.0.0.1:9/edited-by-hand']);
    rmSync(store.path);
    expect(webhooks()).toEqual([]);
  });
});

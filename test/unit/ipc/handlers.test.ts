import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers, dispatch } from '../../../src/main/api/handlers.ts';
import { WorkbenchError } from '../../../src/main/errors.ts';
import { INVOKE_CHANNELS } from '../../../src/shared/ipc/channels.ts';
import { ARG_SCHEMAS } from '../../../src/shared/ipc/schemas.ts';
import { createStubWorkbench } from '../server/stub-workbench.ts';
import { detectSandbox } from '../../../src/main/tools/sandbox/index.ts';
import { isolateClaudeSettings } from '../user-hooks/helpers.ts';

const secrets = () => {
  let k: string | undefined;
  return { get: () => k, set: async (v: string | null) => void (k = v ?? undefined), storage: () => 'memory' as const };
};

describe('handler table and dispatch', () => {
  const wb = createStubWorkbench();
  const handlers = createHandlers({ workbench: wb, mode: 'serve', version: '1', secrets: secrets() });

  it('has a schema and a handler for every channel', () => {
    for (const c of INVOKE_CHANNELS) {
      expect(ARG_SCHEMAS[c]).toBeDefined();
      expect(typeof handlers[c]).toBe('function');
    }
  });

  it('refuses unknown channels, prototype names included', async () => {
    for (const c of ['nope', '__proto__', 'constructor', 'threads.list ', 42, undefined]) {
      const r = await dispatch(handlers, c, {});
      expect(r).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    }
  });

  it('rejects bad payloads before the handler runs', async () => {
    const before = wb.sent.length;
    for (const args of [42, 'x', { text: 42 }, { text: 'hi', extra: 1 }, {}, { text: '' }, JSON.parse('{"text":"a","__proto__":{"polluted":1}}')]) {
      const r = await dispatch(handlers, 'chat.send', args);
      expect(r).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    }
    expect(wb.sent.length).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('resumes a thread with the run choices of a send (a retry after a model error), nothing more', async () => {
    const { value } = (await dispatch(handlers, 'threads.create', {})) as { value: { thread_id: string } };
    const threadId = value.thread_id;
    const choices = { model: 'other-model', approvalMode: 'auto-edit', agent: 'reviewer' };
    expect(await dispatch(handlers, 'chat.resume', { threadId, ...choices })).toMatchObject({ ok: true, value: { threadId, runId: 'r2' } });
    expect(wb.resumed.at(-1)).toEqual({ threadId, ...choices });
    const r = await dispatch(handlers, 'chat.resume', { threadId, text: 'again' });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect(wb.resumed).toHaveLength(1);
  });

  it('rejects oversized strings', async () => {
    const r = await dispatch(handlers, 'chat.send', { text: 'x'.repeat(300_000) });
    expect(r.ok).toBe(false);
  });

  it('runs valid calls and maps errors', async () => {
    const created = await dispatch(handlers, 'threads.create', { title: 'A' });
    expect(created).toMatchObject({ ok: true, value: { title: 'A' } });
    expect(await dispatch(handlers, 'threads.get', { threadId: 'missing' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await dispatch(handlers, 'trust.status', { workspace: '/no/such/folder' })).toMatchObject({ ok: false, error: { code: 'invalid_args', message: expect.stringMatching(/not a folder/) } });
  });

  it('maps only a WorkbenchError to its code; any other throw is internal, whatever its fields', async () => {
    const throwing = (err: unknown) => ({ ...handlers, 'threads.list': () => { throw err; } });
    expect(await dispatch(throwing(new WorkbenchError('conflict', 'busy')), 'threads.list', {})).toEqual({ ok: false, error: { code: 'conflict', message: 'busy' } });
    expect(await dispatch(throwing(Object.assign(new Error('oops'), { code: 'not_found' })), 'threads.list', {})).toEqual({ ok: false, error: { code: 'internal', message: 'oops' } });
    expect(await dispatch(throwing('plain string'), 'threads.list', {})).toEqual({ ok: false, error: { code: 'internal', message: 'plain string' } });
  });

  it('never returns the API key, only whether one is configured', async () => {
    const r = await dispatch(handlers, 'settings.setApiKey', { apiKey: 'sk-canary-123' });
    expect(JSON.stringify(r)).not.toContain('sk-canary-123');
    expect(r).toMatchObject({ ok: true, value: { apiKeyConfigured: true } });
  });

  it('sends the stored key only to the configured origin', async () => {
    const seen: Array<string | undefined> = [];
    const h = createHandlers({
      workbench: createStubWorkbench(),
      mode: 'serve',
      version: '1',
      secrets: { get: () => 'sk-stored', set: async () => {}, storage: () => 'memory' },
      providers: {
        presets: () => [],
        listModels: async (o) => (seen.push(o.apiKey), []),
        testConnection: async (o) => (seen.push(o.apiKey), { ok: false, message: 'x' }),
        probe: async () => [],
        normalize: (u) => u,
      },
    });
    await dispatch(h, 'providers.models', { baseURL: 'https://api.openai.com/v1' });
    await dispatch(h, 'providers.models', { baseURL: 'https://evil.example/v1' });
    expect(seen).toEqual(['sk-stored', undefined]);
  });
});

describe('workspace trust', () => {
  it('lists what a folder brings and stores trust outside it', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const ws = mkdtempSync(join(tmpdir(), 'wb-trust-ws-'));
    const home = mkdtempSync(join(tmpdir(), 'wb-trust-home-'));
    writeFileSync(join(ws, 'AGENTS.md'), '# be nice');
    mkdirSync(join(ws, '.workbench', 'hooks'), { recursive: true });
    writeFileSync(join(ws, '.workbench', 'hooks', 'guard'), '#!/bin/sh\n');
    const wb = createStubWorkbench(ws, home);
    const h = createHandlers({ workbench: wb, mode: 'serve', version: '1', secrets: secrets() });
    const before = await dispatch(h, 'trust.status', { workspace: ws });
    expect(before).toMatchObject({ ok: true, value: { trusted: false } });
    const kinds = (before as { value: { items: Array<{ kind: string }> } }).value.items.map((i) => i.kind);
    expect(kinds).toEqual(['agents_md', 'hooks']);
    expect(await dispatch(h, 'trust.set', { workspace: ws, trusted: true })).toMatchObject({ ok: true, value: { trusted: true } });
    expect(await dispatch(h, 'trust.set', { workspace: ws, trusted: false })).toMatchObject({ ok: true, value: { trusted: false } });
  });
});

describe('API key fallback', () => {
  it('removing a typed key goes back to the environment key', async () => {
    const wb = createStubWorkbench();
    let typed: string | undefined;
    const h = createHandlers({
      workbench: wb,
      mode: 'serve',
      version: '1',
      secrets: { get: () => typed ?? 'sk-env', set: async (k) => void (typed = k ?? undefined), storage: () => (typed ? 'server-file' : 'env') },
    });
    await dispatch(h, 'settings.setApiKey', { apiKey: 'sk-typed' });
    await dispatch(h, 'settings.setApiKey', { apiKey: null });
    expect(wb.credentials.hasApiKey()).toBe(true);
    expect(await dispatch(h, 'settings.get', {})).toMatchObject({ ok: true, value: { apiKeyConfigured: true, keyStorage: 'env' } });
  });
});

/**
 * The Settings view of a stub workbench whose workspace is `<base>/ws`, with Claude Code's settings
 * isolated in `<base>/dot-claude`; everything is removed afterwards.
 */
async function withSettingsView(
  body: (o: { view: () => Promise<unknown>; claudeDir: string; base: string }) => Promise<void>,
): Promise<void> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-settings-view-')));
  const claudeDir = join(base, 'dot-claude');
  mkdirSync(claudeDir);
  mkdirSync(join(base, 'ws'));
  const restore = isolateClaudeSettings(claudeDir, join(base, 'managed-settings.json'));
  try {
    const h = createHandlers({
      workbench: createStubWorkbench(join(base, 'ws'), join(base, 'home')),
      mode: 'serve',
      version: '1',
      secrets: secrets(),
    });
    const view = async () => ((await dispatch(h, 'settings.get', {})) as { value: unknown }).value;
    await body({ view, claudeDir, base });
  } finally {
    restore();
    rmSync(base, { recursive: true, force: true });
  }
}

const availability = await detectSandbox();
const bwrapUsable = availability.available && availability.engine === 'bubblewrap';

describe("the Settings panel's Commands line", () => {
  it.skipIf(!bwrapUsable)(
    "says what a run in the current workspace goes by, Claude Code's sandbox block included",
    async () => {
      await withSettingsView(async ({ view, claudeDir }) => {
        const status = async () => ((await view()) as { sandboxStatus: string }).sandboxStatus;
        expect(await status()).toBe('sandboxed (bubblewrap, no network)');
        writeFileSync(
          join(claudeDir, 'settings.json'),
          JSON.stringify({ sandbox: { network: { allowedDomains: ['registry.npmjs.org'] } } }),
        );
        expect(await status()).toBe('sandboxed (bubblewrap, network to registry.npmjs.org only)');
      });
    },
  );
});

describe("the Settings panel's working directories", () => {
  it("lists the folders Claude Code's additionalDirectories add to the current workspace, with those left out and why", async () => {
    await withSettingsView(async ({ view, claudeDir, base }) => {
      mkdirSync(join(base, 'lib'));
      const dirs = async () => ((await view()) as { workingDirs?: unknown }).workingDirs;
      expect(await dirs()).toBeUndefined();
      const file = join(claudeDir, 'settings.json');
      writeFileSync(file, JSON.stringify({ permissions: { additionalDirectories: ['../lib', '~'] } }));
      expect(await dirs()).toEqual({
        dirs: [join(base, 'lib')],
        problems: [
          `${file}: permissions.additionalDirectories: ~ is left out: it holds your home folder, whose credentials stay out of reach; name the folders inside it instead`,
        ],
      });
    });
  });
});

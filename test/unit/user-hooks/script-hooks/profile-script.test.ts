/** agent.yaml `script:` and when a profile's script hook runs, is inert, or is absent. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgentProfile } from '../../../../src/main/agents/profile.ts';
import { profileScriptHooks } from '../../../../src/main/user-hooks/script-hooks/index.ts';
import { DEFAULT_SETTINGS } from '../../../../src/shared/types/index.ts';
import { scriptFolder } from './harness.ts';

let folder: ReturnType<typeof scriptFolder>;
beforeEach(() => {
  folder = scriptFolder();
  mkdirSync(join(folder.dir, '.workbench'));
  writeFileSync(
    join(folder.dir, '.workbench', 'agent.yaml'),
    'name: router\nscript: ./hooks/route.ts\n',
  );
});
afterEach(() => folder.cleanup());

describe('profile scripts', () => {
  it('agent.yaml `script:` is resolved against the folder of agent.yaml', async () => {
    const { profile, diagnostics } = await loadAgentProfile(folder.dir);
    expect(diagnostics).toEqual([]);
    expect(profile.script).toBe(join(folder.dir, '.workbench', 'hooks', 'route.ts'));
  });

  it('a workspace script runs only when the workspace is trusted; a missing file is inert', async () => {
    const { profile } = await loadAgentProfile(folder.dir);
    const base = { profile, workspace: folder.dir, settings: DEFAULT_SETTINGS };

    const missing = profileScriptHooks({ ...base, trusted: true });
    expect(missing.hooks).toEqual([]);
    expect(missing.infos[0]).toMatchObject({
      id: 'script:router',
      problem: 'script file not found',
    });

    mkdirSync(join(folder.dir, '.workbench', 'hooks'));
    writeFileSync(profile.script!, 'export function Create() { return null; }\n');
    const untrusted = profileScriptHooks({ ...base, trusted: false });
    expect(untrusted.hooks).toEqual([]);
    expect(untrusted.infos[0]).toMatchObject({
      source: 'workspace',
      trusted: false,
      enabled: true,
    });
    expect(untrusted.diagnostics[0]).toContain('not trusted');

    const trusted = profileScriptHooks({ ...base, trusted: true });
    expect(trusted.hooks.map((h) => h.name)).toEqual(['script:router']);

    const off = { ...DEFAULT_SETTINGS, hook_overrides: { 'script:router': { enabled: false } } };
    expect(profileScriptHooks({ ...base, settings: off, trusted: true }).hooks).toEqual([]);
    expect(profileScriptHooks({ ...base, trusted: true, noHooks: true }).hooks).toEqual([]);
  });

  it('a script outside the workspace (a user profile) runs without workspace trust', () => {
    const user = scriptFolder();
    try {
      const script = user.write('export function Next() { return null; }\n');
      const profile = { name: 'helper', script } as Parameters<
        typeof profileScriptHooks
      >[0]['profile'];
      const out = profileScriptHooks({
        profile,
        workspace: folder.dir,
        settings: DEFAULT_SETTINGS,
        trusted: false,
      });
      expect(out.hooks).toHaveLength(1);
      expect(out.infos[0]).toMatchObject({ source: 'user', trusted: true });
    } finally {
      user.cleanup();
    }
  });
});

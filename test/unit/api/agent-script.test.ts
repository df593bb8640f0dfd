/** The Agents panel's script editing: only the file a profile names, inside its allowed folders, with a conflict check. */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentsService } from '../../../src/main/api/panels/agents-service.ts';
import { loadAgentRegistry } from '../../../src/main/agents/registry.ts';
import { createTrustStore } from '../../../src/main/user-hooks/index.ts';
import { DEFAULT_SETTINGS } from '../../../src/shared/types/index.ts';

let base: string;
let ws: string;
let home: string;
let agentsDir: string;
const realConfigDir = process.env.CLAUDE_CONFIG_DIR;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-agent-script-')));
  ws = join(base, 'ws');
  home = join(base, 'home');
  agentsDir = join(ws, '.workbench', 'agents');
  mkdirSync(agentsDir, { recursive: true });
  mkdirSync(home);
  process.env.CLAUDE_CONFIG_DIR = join(base, 'claude');
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
  if (realConfigDir === undefined) delete process.env.CLAUDE_CONFIG_DIR;
  else process.env.CLAUDE_CONFIG_DIR = realConfigDir;
});

const service = () =>
  createAgentsService({
    home,
    settings: { get: () => DEFAULT_SETTINGS, update: async () => DEFAULT_SETTINGS },
    trust: createTrustStore(home),
  });
const profile = (name: string, front = '') =>
  writeFileSync(join(agentsDir, `${name}.md`), `---\ndescription: ${name}\n${front}---\nPrompt\n`);

describe('agent scripts', () => {
  it('adds a script from the template and names it in the profile, inert until trusted', async () => {
    profile('router');
    const svc = service();
    const r = await svc.createScript({ workspace: ws, name: 'router' });
    const path = join(agentsDir, 'router.hooks.ts');
    expect(r.script).toMatchObject({ name: 'router', path, inert: true });
    expect(readFileSync(path, 'utf8')).toContain("agent_id: 'search'");
    expect(readFileSync(join(agentsDir, 'router.md'), 'utf8')).toContain(
      'script: ./router.hooks.ts\n---\nPrompt',
    );
    expect(r.profile).toMatchObject({ script: path, diagnostics: [] });
    await createTrustStore(home).trust(ws);
    const registry = await loadAgentRegistry({ workspace: ws, home, trusted: true });
    expect(registry.get('router')?.profile.script).toBe(path);
    expect((await svc.readScript({ workspace: ws, name: 'router' })).inert).toBe(false);
    await expect(svc.createScript({ workspace: ws, name: 'router' })).rejects.toThrow(
      /already has a script/,
    );
  });

  it('reads and saves the named script, refusing a stale baseVersion', async () => {
    profile('router', 'script: ./r.ts\n');
    writeFileSync(join(agentsDir, 'r.ts'), 'export function Create() { return null; }\n');
    const svc = service();
    const opened = await svc.readScript({ workspace: ws, name: 'router' });
    expect(opened.content).toContain('Create');
    const saved = await svc.writeScript({
      workspace: ws,
      name: 'router',
      content: '// v2\n',
      baseVersion: opened.version,
    });
    expect(saved.status).toBe('saved');
    expect(readFileSync(join(agentsDir, 'r.ts'), 'utf8')).toBe('// v2\n');
    const stale = await svc.writeScript({
      workspace: ws,
      name: 'router',
      content: '// mine\n',
      baseVersion: opened.version,
    });
    expect(stale).toMatchObject({ status: 'conflict', script: { content: '// v2\n' } });
    expect(readFileSync(join(agentsDir, 'r.ts'), 'utf8')).toBe('// v2\n');
  });

  it('refuses a profile without a script, an unknown profile and a script that is not .ts', async () => {
    profile('plain');
    profile('odd', 'script: ../../package.json\n');
    writeFileSync(join(ws, 'package.json'), '{}');
    const svc = service();
    await expect(svc.readScript({ workspace: ws, name: 'plain' })).rejects.toThrow(/no script/);
    await expect(svc.readScript({ workspace: ws, name: 'nobody' })).rejects.toThrow(/no agent/);
    await expect(
      svc.writeScript({ workspace: ws, name: 'odd', content: 'x', baseVersion: '' }),
    ).rejects.toThrow(/ends in \.ts/);
    expect(readFileSync(join(ws, 'package.json'), 'utf8')).toBe('{}');
  });

  it('refuses a script that is a link out of the workspace, and a workspace script in the user folders', async () => {
    const outside = join(base, 'outside.ts');
    writeFileSync(outside, '// secret\n');
    symlinkSync(outside, join(agentsDir, 'escape.ts'));
    profile('sneaky', 'script: ./escape.ts\n');
    mkdirSync(join(home, 'agents'));
    writeFileSync(join(home, 'agents', 'mine.ts'), '// mine\n');
    profile('reach', `script: ${join(home, 'agents', 'mine.ts')}\n`);
    const svc = service();
    await expect(svc.readScript({ workspace: ws, name: 'sneaky' })).rejects.toThrow(/refused/);
    await expect(
      svc.writeScript({ workspace: ws, name: 'sneaky', content: 'x', baseVersion: '' }),
    ).rejects.toThrow(/refused/);
    expect(readFileSync(outside, 'utf8')).toBe('// secret\n');
    await expect(svc.readScript({ workspace: ws, name: 'reach' })).rejects.toThrow(/refused/);
  });

  it('saves through a link that stays in the workspace, to its target', async () => {
    mkdirSync(join(ws, 'scripts'));
    writeFileSync(join(ws, 'scripts', 'shared.ts'), '// v1\n');
    symlinkSync(join(ws, 'scripts', 'shared.ts'), join(agentsDir, 'linked.ts'));
    profile('linked', 'script: ./linked.ts\n');
    const svc = service();
    const opened = await svc.readScript({ workspace: ws, name: 'linked' });
    await svc.writeScript({
      workspace: ws,
      name: 'linked',
      content: '// v2\n',
      baseVersion: opened.version,
    });
    expect(readFileSync(join(ws, 'scripts', 'shared.ts'), 'utf8')).toBe('// v2\n');
  });

  it("edits a user profile's script in $WORKBENCH_HOME", async () => {
    mkdirSync(join(home, 'agents'));
    writeFileSync(join(home, 'agents', 'helper.md'), '---\ndescription: h\n---\nP\n');
    const svc = service();
    const r = await svc.createScript({ workspace: ws, name: 'helper' });
    expect(r.script).toMatchObject({ path: join(home, 'agents', 'helper.hooks.ts'), inert: false });
  });
});

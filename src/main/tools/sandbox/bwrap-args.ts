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
    '--die-with-parent',
    '--new-session',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    ...(policy.network ? [] : ['--unshare-net']),
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

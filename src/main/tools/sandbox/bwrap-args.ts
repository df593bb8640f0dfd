/** The bubblewrap command line for one sandboxed command (docs/tools.md#sandbox). Pure. */
import type { SandboxPolicy } from './policy.ts';

/**
 * `bwrap` arguments that run `shell -c command` in `cwd` under `policy`.
 * Contract: after the read-only root and the private /tmp, mounts are made shallowest first, so a
 * deeper path's mount wins over its folder's (a secret inside the workspace stays hidden, the
 * workspace stays visible inside a hidden home); at one path the later kind wins — the workspace,
 * the writable and reopened paths, the read-only protected paths and placeholders, the hidden
 * secrets, then the files that must stay readable (a hook's own script). All capabilities are
 * dropped, the command gets its own PID namespace and session and dies with the workbench; the
 * network is unshared unless `policy.network`.
 */
export function bwrapArgs(
  policy: SandboxPolicy,
  shell: string,
  command: string,
  cwd: string,
  proxy?: SandboxProxy,
): string[] {
  const mounts: { at: string; args: string[] }[] = [
    { at: policy.workspace, args: ['--bind', policy.workspace, policy.workspace] },
    ...policy.writable.map((p) => ({ at: p, args: ['--bind', p, p] })),
    ...policy.reopened.map((p) => ({ at: p, args: ['--ro-bind', p, p] })),
    ...policy.readOnly.map((p) => ({ at: p, args: ['--ro-bind', p, p] })),
    ...policy.placeholders.map((p) => ({ at: p, args: ['--ro-bind', '/dev/null', p] })),
    ...policy.hiddenDirs.map((p) => ({ at: p, args: ['--tmpfs', p] })),
    ...policy.hiddenFiles.map((p) => ({ at: p, args: ['--ro-bind', '/dev/null', p] })),
    ...policy.readable.map((p) => ({ at: p, args: ['--ro-bind', p, p] })),
  ];
  // A stable sort: the order above decides between mounts at one depth.
  mounts.sort((a, b) => depth(a.at) - depth(b.at));
  return [
    ...bwrapIsolation(policy.network),
    ...mounts.flatMap((m) => m.args),
    ...(proxy ? ['--bind', proxy.socketPath, PROXY_SOCKET_IN_SANDBOX] : []),
    '--chdir',
    cwd,
    '--',
    ...(proxy ? [...proxy.bridge, PROXY_SOCKET_IN_SANDBOX, String(PROXY_PORT)] : []),
    shell,
    '-c',
    command,
  ];
}

/** The domain proxy of a command without a network of its own (domain-proxy.ts). */
export interface SandboxProxy {
  /** The workbench's proxy socket, bound into the sandbox. */
  socketPath: string;
  /** How the bridge starts inside the sandbox: `[node, proxy-bridge.mjs]`; it then runs the command. */
  bridge: string[];
}

/** Where the proxy socket appears in the sandbox (its private /tmp). */
export const PROXY_SOCKET_IN_SANDBOX = '/tmp/.workbench-proxy.sock';
/** The port the bridge listens on, on the sandbox's own loopback. */
export const PROXY_PORT = 3128;

/** How many folders deep `p` lies (`/` is 0). */
export function depth(p: string): number {
  return p.split('/').filter(Boolean).length;
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

/**
 * The host's Unix sockets a sandboxed command could otherwise connect to (docs/security.md#the-sandbox).
 * A read-only mount does not stop `connect()`, and behind these sockets are services that run code
 * outside the sandbox: the D-Bus session bus and systemd's user manager (`systemd-run --user`), the
 * system bus, Docker, Podman, containerd, libvirt, LXD, snapd. The sandbox hides them as it hides the
 * secrets: the user's runtime folder and the daemons' folders whole, any other socket under /run one
 * by one. The sockets that only answer name lookups or take log lines stay. Abstract sockets need
 * nothing: the sandbox has a network namespace of its own.
 */
import path from 'node:path';
import { entriesIfAny } from '../../fs/list-if-any.ts';
import { lstatIfAny } from '../../fs/stat-if-any.ts';
import { isInside } from '../path-guard.ts';

/** Folders of daemons that listen on sockets, hidden whole where they exist. */
const DAEMON_DIRS = [
  '/run/dbus',
  '/run/docker',
  '/run/containerd',
  '/run/podman',
  '/run/crio',
  '/run/libvirt',
  '/run/lxd',
  '/run/incus',
  '/var/snap/lxd/common/lxd',
  '/var/lib/lxd',
];

/** Sockets that stay, under each root: journald's (log lines), systemd-resolved's and nscd's (name lookups). */
const KEPT = ['systemd/journal', 'systemd/resolve', 'nscd'];

/** How deep and how many entries the walk of /run looks at. */
const SCAN_DEPTH = 3;
const SCAN_LIMIT = 2000;

/** Whether `p` is a folder (not a link to one); false when it cannot be looked at. */
function isFolder(p: string): boolean {
  try {
    return lstatIfAny(p)?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** Sockets under `root`, breadth first, within the limits, outside `skip`. */
function socketsUnder(root: string, skip: readonly string[]): string[] {
  const found: string[] = [];
  let level = [root];
  let seen = 0;
  for (let depth = 0; depth < SCAN_DEPTH && level.length && seen < SCAN_LIMIT; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      for (const e of entriesIfAny(dir)) {
        if (++seen > SCAN_LIMIT) break;
        const p = path.join(dir, e.name);
        if (skip.some((s) => isInside(p, s))) continue;
        if (e.isSocket()) found.push(p);
        else if (e.isDirectory()) next.push(p);
      }
    }
    level = next;
  }
  return found;
}

/**
 * What to hide: existing folders and sockets. `runtimeDirs` are the user's (`userRuntimeDirs`);
 * `roots` the folders walked for other sockets (default /run, and /var/run where it is a folder of
 * its own rather than a link to /run). Synchronous: /run is a memory file system of a few hundred
 * entries, walked in under a millisecond, less than the thread-pool hops of asynchronous calls
 * cost (0.7 against 1.7 ms a command here). Contract: never throws; a folder that cannot be read is
 * passed over.
 */
export function hostSocketPaths(o: {
  runtimeDirs: readonly string[];
  roots?: readonly string[];
}): string[] {
  const dirs = [...new Set([...o.runtimeDirs, ...DAEMON_DIRS])].filter(isFolder);
  const roots = o.roots ? [...o.roots] : ['/run'];
  if (!o.roots && isFolder('/var/run')) roots.push('/var/run');
  const sockets = roots.flatMap((root) =>
    socketsUnder(root, [...dirs, ...KEPT.map((k) => path.join(root, k))]),
  );
  return [...dirs, ...sockets];
}

/** The user's runtime folders: `$XDG_RUNTIME_DIR` and `/run/user/<uid>`. */
export function userRuntimeDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const dirs = [env.XDG_RUNTIME_DIR, process.getuid ? `/run/user/${process.getuid()}` : undefined];
  // Only a folder under /run counts: a stray XDG_RUNTIME_DIR must not hide the home folder or `/`.
  const underRun = (d: string) =>
    path.isAbsolute(d) && [`/run/`, `/var/run/`].some((r) => path.normalize(d).startsWith(r));
  return [...new Set(dirs.filter((d): d is string => !!d && underRun(d)))];
}

/**
 * The host's Unix sockets a sandboxed command could otherwise connect to (docs/security.md#the-sandbox).
 * A read-only mount does not stop `connect()`, and behind these sockets are services that run code
 * outside the sandbox: the D-Bus session bus and systemd's user manager (`systemd-run --user`), the
 * system bus, Docker, Podman, containerd, libvirt, LXD, snapd. The sandbox hides them as it hides the
 * secrets: the user's runtime folder and the daemons' folders whole, any other socket under /run one
 * by one. The sockets that only answer name lookups or take log lines stay. Abstract sockets need
 * nothing: the sandbox has a network namespace of its own.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

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

const inside = (p: string, dir: string) =>
  p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/** Sockets under `root`, breadth first, within the limits, outside `skip`. */
async function socketsUnder(root: string, skip: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  let level = [root];
  let seen = 0;
  for (let depth = 0; depth < SCAN_DEPTH && level.length && seen < SCAN_LIMIT; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        if (++seen > SCAN_LIMIT) break;
        const p = path.join(dir, e.name);
        if (skip.some((s) => inside(p, s))) continue;
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
 * its own rather than a link to /run). Contract: never throws; a folder that cannot be read is
 * passed over.
 */
export async function hostSocketPaths(o: {
  runtimeDirs: readonly string[];
  roots?: readonly string[];
}): Promise<string[]> {
  const dirs: string[] = [];
  for (const d of [...o.runtimeDirs, ...DAEMON_DIRS]) {
    const st = await fs.lstat(d).catch(() => undefined);
    if (st?.isDirectory() && !dirs.includes(d)) dirs.push(d);
  }
  const roots = o.roots ? [...o.roots] : ['/run'];
  if (!o.roots && (await fs.lstat('/var/run').catch(() => undefined))?.isDirectory())
    roots.push('/var/run');
  const sockets: string[] = [];
  for (const root of roots) {
    const kept = KEPT.map((k) => path.join(root, k));
    sockets.push(...(await socketsUnder(root, [...dirs, ...kept])));
  }
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

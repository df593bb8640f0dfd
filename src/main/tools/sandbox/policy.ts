/**
 * What a sandboxed command may touch (docs/tools.md#sandbox): the workspace read-write except the
 * protected paths, the rest of the file system read-only, secrets in the home folder hidden, a
 * private /tmp, and no network unless allowed. Resolving looks at the file system (what exists,
 * where links point); the bubblewrap and seatbelt builders that read the result are pure.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { sandboxProtectedPaths } from '../protected-paths.ts';
import { hostSocketPaths, userRuntimeDirs } from './host-sockets.ts';

/** Credentials and tokens under the user's home folder that a command never sees. */
export const HOME_SECRETS: readonly string[] = [
  '.ssh',
  '.aws',
  '.azure',
  '.gnupg',
  '.config/gh',
  '.config/gcloud',
  '.config/hub',
  '.netrc',
  '.docker',
  '.kube',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.password-store',
  '.local/share/keyrings',
  '.claude/.credentials.json',
  // Claude Code's config: the env of its MCP servers (`claude mcp add --env KEY=…`) is kept there.
  '.claude.json',
  '.codex/auth.json',
];

/** Where a command runs and whether it may use the network. */
export interface SandboxPolicyInput {
  workspace: string;
  /**
   * Working directories added to the workspace (`--add-dir`, `additionalDirectories`; checked by
   * working-dirs.ts): writable as the workspace is, their protected paths read-only.
   */
  workRoots?: readonly string[];
  /**
   * Files the run's hooks and MCP servers run outside the sandbox (`Workspace.programs`): read-only
   * in the work roots, so a command cannot change what runs outside it.
   */
  programs?: readonly string[];
  /** The user's home folder (its secrets are hidden). */
  home: string;
  /** $WORKBENCH_HOME: database, settings and keys; hidden whole. */
  workbenchHome: string;
  network: boolean;
  /**
   * Files the command must read even where they lie in a hidden folder: a sandboxed hook's own
   * script under `$WORKBENCH_HOME/hooks`. Never a credential of `HOME_SECRETS`.
   */
  readable?: string[];
  /** Paths the user's rules keep from commands (docs/security.md): hidden like the secrets. */
  deniedRead?: readonly string[];
  /** Paths the user's rules keep commands from writing: bound read-only where they were writable. */
  deniedWrite?: readonly string[];
  /**
   * Paths readable again inside a hidden folder (`sandbox.filesystem.allowRead`). Never one of the
   * secrets or the workbench home.
   */
  allowedRead?: readonly string[];
  /**
   * Paths writable besides the workspace (`sandbox.filesystem.allowWrite`). Never one of the
   * secrets, the workbench home, `/`, /proc or /sys, nor a path a deny rule or protection covers.
   */
  allowedWrite?: readonly string[];
  /**
   * Whether commands may connect to the host's Unix sockets (Claude Code's
   * `sandbox.network.allowAllUnixSockets`); by default they are hidden (host-sockets.ts).
   */
  hostSockets?: boolean;
}

/** The policy with every path absolute and resolved against the file system. */
export interface SandboxPolicy {
  workspace: string;
  network: boolean;
  /** Every protected path, existing or not (the seatbelt profile denies writes by path). */
  protectedPaths: string[];
  /** Existing paths bound read-write besides the workspace: `allowWrite`, and what `allowRead` opens in writable places. */
  writable: string[];
  /** Existing paths bound read-only again inside a hidden folder (`allowRead`). */
  reopened: string[];
  /** Existing protected paths (real paths inside the workspace), bound read-only. */
  readOnly: string[];
  /**
   * The first missing component of each missing protected path: an empty read-only placeholder is
   * bound there so the command cannot create it, and removed after the command.
   */
  placeholders: string[];
  /** Existing secret folders, covered by an empty tmpfs. */
  hiddenDirs: string[];
  /** Existing secret files, covered by an empty read-only file. */
  hiddenFiles: string[];
  /** Existing regular files (real paths) bound read-only over the hidden folders. */
  readable: string[];
  /**
   * Links on the way to a protected path that lie where commands write (`.claude -> config`, a
   * `.git/hooks` link): a mount cannot pin a link, so each is checked after the command and put
   * back if the command replaced it (placeholder-journal.ts).
   */
  pinnedLinks: PinnedLink[];
}

/** A link as it was before a command: its place and what it says. */
export interface PinnedLink {
  path: string;
  target: string;
}

/** Links followed per path before giving up (as the kernel's ELOOP limit). */
const MAX_LINKS = 40;

/**
 * The real location of `p` as far as it exists, following links, and its first missing part; the
 * places of the links followed are pushed to `links`.
 */
async function resolveExisting(
  p: string,
  links: string[] = [],
): Promise<{ real: string; missing?: string }> {
  const parts = path.resolve(p).split(path.sep).filter(Boolean);
  let real: string = path.sep;
  while (parts.length > 0) {
    const next = path.join(real, parts.shift()!);
    const st = await fs.lstat(next).catch(() => undefined);
    if (!st) return { real: path.join(next, ...parts), missing: next };
    if (st.isSymbolicLink() && links.length < MAX_LINKS) {
      links.push(next);
      const target = await fs.readlink(next);
      parts.unshift(...path.resolve(real, target).split(path.sep).filter(Boolean));
      real = path.sep;
      continue;
    }
    real = next;
  }
  return { real };
}

const inside = (child: string, parent: string): boolean =>
  child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

/** Existing paths of `paths`, links followed, in order and without repeats. */
async function existingReal(paths: readonly string[]): Promise<string[]> {
  return [...new Set((await existing(paths)).map((e) => e.real))];
}

/** The paths of `paths` that exist, each with its real location and the links on the way there. */
async function existing(
  paths: readonly string[],
): Promise<Array<{ path: string; real: string; links: string[] }>> {
  const out = [];
  for (const p of paths) {
    const links: string[] = [];
    const { real, missing } = await resolveExisting(p, links);
    if (missing === undefined) out.push({ path: p, real, links });
  }
  return out;
}

/**
 * Contract: never throws for missing paths; `workspace` must be a real path. Mounts are meant to be
 * made shallowest first (`bwrapArgs`), so a deeper path's rule wins over its folder's: a file a
 * rule hides inside a folder `allowRead` opened stays hidden, the workspace stays visible and
 * writable inside a hidden home.
 */
export async function resolveSandboxPolicy(input: SandboxPolicyInput): Promise<SandboxPolicy> {
  const ws = input.workspace;
  const workRoots = [ws, ...(await unmoved(input.workRoots ?? []))];
  const protectedEntries = [
    ...workRoots.flatMap((root) =>
      sandboxProtectedPaths().map((p) => ({ ...p, path: path.join(root, p.path) })),
    ),
    // Where one is missing no placeholder: its folder may be one a build fills (`node_modules`).
    ...(input.programs ?? []).map((p) => ({ path: p, placeholder: false })),
  ];
  const protectedPaths = protectedEntries.map((p) => p.path);
  const deniedWrite = input.deniedWrite ?? [];
  const secretPaths = HOME_SECRETS.map((rel) => path.join(input.home, rel));
  const secretRoots = await realRoots(secretPaths);
  const [workbenchRoot, homeRoot] = await realRoots([input.workbenchHome, input.home]);
  const sockets = input.hostSockets ? [] : hostSocketPaths({ runtimeDirs: userRuntimeDirs() });
  const alwaysHidden = (p: string) =>
    inside(p, workbenchRoot!) ||
    secretRoots.some((s) => inside(p, s)) ||
    sockets.some((s) => inside(p, s));
  const deniedWriteReal = await existingReal(deniedWrite);
  const opened = [
    ...workRoots.slice(1),
    ...(await notThroughPlantedLinks(input.allowedWrite ?? [], workRoots, {
      entriesWritable: true,
    })),
  ].filter(
    (p) =>
      p !== path.sep &&
      !inside(p, '/proc') &&
      !inside(p, '/sys') &&
      !alwaysHidden(p) &&
      // Never the home folder or above, even where a link now leads there from an opened path.
      !inside(homeRoot!, p) &&
      !deniedWriteReal.some((d) => inside(p, d)),
  );
  const readOnly = new Set<string>();
  const placeholders = new Set<string>();
  const writableAt = (p: string) => inside(p, ws) || opened.some((w) => inside(p, w));
  // Outside the writable places everything is read-only already. A missing protected path gets a
  // placeholder, so it cannot be created; a missing denied one has nothing to keep.
  const pinned = new Map<string, string>();
  for (const p of protectedEntries) {
    const links: string[] = [];
    const { real, missing } = await resolveExisting(p.path, links);
    for (const link of links) {
      if (pinned.has(link) || !workRoots.some((r) => link !== r && inside(link, r))) continue;
      const target = await fs.readlink(link).catch(() => undefined);
      if (target !== undefined) pinned.set(link, target);
    }
    const root = workRoots.find((r) => inside(real, r));
    if (missing === undefined) {
      if (root !== undefined) readOnly.add(real);
    } else if (p.placeholder && root !== undefined && missing !== root && inside(missing, root))
      placeholders.add(missing);
  }
  for (const real of deniedWriteReal) {
    if (writableAt(real)) readOnly.add(real);
    // A folder holding the workspace: the workspace is what was writable in it.
    else if (inside(ws, real)) readOnly.add(ws);
  }
  const writable = new Set(opened.filter((p) => ![...readOnly].some((r) => inside(p, r))));
  const reopenable = (
    await notThroughPlantedLinks(input.allowedRead ?? [], [...workRoots, ...writable], {
      entriesWritable: false,
    })
  ).filter((p) => !alwaysHidden(p));
  const hiddenDirs = new Set<string>();
  const hiddenFiles = new Set<string>();
  const alwaysHiddenPaths = new Set([...secretPaths, input.workbenchHome]);
  const secrets = [...alwaysHiddenPaths, ...sockets, ...(input.deniedRead ?? [])];
  const inWritable = (p: string) => [...writable].some((w) => inside(p, w) && p !== w);
  for (const p of secrets) {
    const { real, missing } = await resolveExisting(p);
    // A secret that does not exist yet cannot be created in a folder `allowWrite` opened.
    if (missing !== undefined && alwaysHiddenPaths.has(p) && inWritable(missing))
      placeholders.add(missing);
    // `allowRead` of the very path wins over its deny, as in Claude Code; `/` is never hidden.
    if (missing !== undefined || real === path.sep || reopenable.includes(real)) continue;
    const st = await fs.stat(real).catch(() => undefined);
    if (st?.isDirectory()) hiddenDirs.add(real);
    else if (st) hiddenFiles.add(real);
  }
  const visible = [ws, ...writable, ...reopenable];
  // Whether the deepest folder holding `p` among the hidden and the visible ones is a hidden one.
  const hiddenAt = (p: string): boolean => {
    let deepest: { at: string; hidden: boolean } | undefined;
    const consider = (at: string, hidden: boolean) => {
      if (at === p || !inside(p, at)) return;
      if (!deepest || at.length > deepest.at.length || (at === deepest.at && hidden))
        deepest = { at, hidden };
    };
    for (const v of visible) consider(v, false);
    for (const h of hiddenDirs) consider(h, true);
    return deepest?.hidden ?? false;
  };
  const reopened = new Set<string>();
  for (const p of reopenable.filter(hiddenAt)) {
    if (writableAt(p) && ![...readOnly].some((r) => inside(p, r))) writable.add(p);
    else reopened.add(p);
  }
  const readable = new Set<string>();
  for (const p of input.readable ?? []) {
    const real = await fs.realpath(p).catch(() => undefined);
    if (real === undefined || secretRoots.some((s) => inside(real, s))) continue;
    if ((await fs.stat(real).catch(() => undefined))?.isFile()) readable.add(real);
  }
  // Inside a read-only bound folder nothing can be created, and a mount point cannot be made.
  const covered = (p: string): boolean => [...readOnly].some((r) => r !== p && inside(p, r));
  return {
    workspace: ws,
    network: input.network,
    // Seatbelt denies writes by path: the hidden credentials inside an opened folder too.
    protectedPaths: [
      ...protectedPaths,
      ...deniedWrite,
      ...[...alwaysHiddenPaths].filter(inWritable),
    ],
    writable: [...writable],
    reopened: [...reopened],
    readOnly: [...readOnly].filter((p) => !covered(p) && !hiddenAt(p)),
    placeholders: [...placeholders].filter((p) => !covered(p) && !hiddenAt(p)),
    // Inside a hidden folder there is nothing left to hide, unless a visible one lies between.
    hiddenDirs: [...hiddenDirs].filter((p) => !hiddenAt(p)),
    hiddenFiles: [...hiddenFiles].filter((p) => !hiddenAt(p)),
    readable: [...readable],
    // A link inside a folder bound read-only cannot be replaced.
    pinnedLinks: [...pinned]
      .filter(([link]) => ![...readOnly].some((r) => r !== link && inside(link, r)))
      .map(([link, target]) => ({ path: link, target })),
  };
}

/**
 * The real paths of `allowWrite` or `allowRead` entries, links followed, except where a link on the
 * way lies in a place commands write (`writable`; for `allowWrite` also inside another entry): a
 * command may have put it there to open its target, such as a folder in the home whose files run
 * at login, or one a deny rule hides.
 */
async function notThroughPlantedLinks(
  paths: readonly string[],
  writable: readonly string[],
  o: { entriesWritable: boolean },
): Promise<string[]> {
  const found = await existing(paths);
  const places = [...writable, ...(o.entriesWritable ? found.map((f) => f.real) : [])];
  const planted = (link: string) => places.some((w) => link !== w && inside(link, w));
  return [...new Set(found.filter((f) => !f.links.some(planted)).map((f) => f.real))];
}

/**
 * The real paths of `paths` that still are where they were: a working directory replaced by a link
 * since the run started (by a command writing the folder above it) opens nothing.
 */
async function unmoved(paths: readonly string[]): Promise<string[]> {
  return (await existing(paths)).filter((e) => e.real === e.path).map((e) => e.path);
}

/** The real locations of `paths` as far as they exist (a missing secret is still never opened). */
async function realRoots(paths: readonly string[]): Promise<string[]> {
  return Promise.all(paths.map(async (p) => (await resolveExisting(p)).real));
}

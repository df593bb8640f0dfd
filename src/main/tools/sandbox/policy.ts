/**
 * What a sandboxed command may touch (docs/tools.md#sandbox): the workspace read-write except the
 * protected paths, the rest of the file system read-only, secrets in the home folder hidden, a
 * private /tmp, and no network unless allowed. Resolving looks at the file system (what exists,
 * where links point); the bubblewrap and seatbelt builders that read the result are pure.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { sandboxProtectedPaths } from '../protected-paths.ts';

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
  /** Paths inside the workspace the user's rules keep commands from writing: bound read-only. */
  deniedWrite?: readonly string[];
}

/** The policy with every path absolute and resolved against the file system. */
export interface SandboxPolicy {
  workspace: string;
  network: boolean;
  /** Every protected path, existing or not (the seatbelt profile denies writes by path). */
  protectedPaths: string[];
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
}

/** Links followed per path before giving up (as the kernel's ELOOP limit). */
const MAX_LINKS = 40;

/** The real location of `p` as far as it exists, following links, and its first missing part. */
async function resolveExisting(p: string): Promise<{ real: string; missing?: string }> {
  const parts = path.resolve(p).split(path.sep).filter(Boolean);
  let real: string = path.sep;
  let links = 0;
  while (parts.length > 0) {
    const next = path.join(real, parts.shift()!);
    const st = await fs.lstat(next).catch(() => undefined);
    if (!st) return { real: path.join(next, ...parts), missing: next };
    if (st.isSymbolicLink() && links++ < MAX_LINKS) {
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

/** Contract: never throws for missing paths; `workspace` must be a real path. */
export async function resolveSandboxPolicy(input: SandboxPolicyInput): Promise<SandboxPolicy> {
  const ws = input.workspace;
  const protectedPaths = sandboxProtectedPaths().map((rel) => path.join(ws, rel));
  const readOnly = new Set<string>();
  const placeholders = new Set<string>();
  const deniedWrite = input.deniedWrite ?? [];
  // Outside the workspace everything is read-only already. A missing protected path gets a
  // placeholder, so it cannot be created; a missing denied one has nothing to keep.
  const bindReadOnly = async (p: string, placeholder: boolean) => {
    const { real, missing } = await resolveExisting(p);
    if (missing === undefined) {
      if (inside(real, ws)) readOnly.add(real);
    } else if (placeholder && inside(missing, ws) && missing !== ws) placeholders.add(missing);
  };
  for (const p of protectedPaths) await bindReadOnly(p, true);
  for (const p of deniedWrite) await bindReadOnly(p, false);
  const hiddenDirs = new Set<string>();
  const hiddenFiles = new Set<string>();
  const secrets = [
    ...HOME_SECRETS.map((rel) => path.join(input.home, rel)),
    input.workbenchHome,
    ...(input.deniedRead ?? []),
  ];
  for (const p of secrets) {
    const { real, missing } = await resolveExisting(p);
    // Hiding a folder that holds the workspace would hide the workspace too.
    if (missing !== undefined || inside(ws, real)) continue;
    const st = await fs.stat(real).catch(() => undefined);
    if (st?.isDirectory()) hiddenDirs.add(real);
    else if (st) hiddenFiles.add(real);
  }
  const secretRoots = await Promise.all(
    HOME_SECRETS.map(async (rel) => (await resolveExisting(path.join(input.home, rel))).real),
  );
  const readable = new Set<string>();
  for (const p of input.readable ?? []) {
    const real = await fs.realpath(p).catch(() => undefined);
    if (real === undefined || secretRoots.some((s) => inside(real, s))) continue;
    if ((await fs.stat(real).catch(() => undefined))?.isFile()) readable.add(real);
  }
  // Inside a read-only bound folder nothing can be created, and a mount point cannot be made.
  const covered = (p: string): boolean => [...readOnly].some((r) => r !== p && inside(p, r));
  // Inside a hidden folder there is nothing left to hide.
  const underHidden = (p: string): boolean => [...hiddenDirs].some((d) => d !== p && inside(p, d));
  return {
    workspace: ws,
    network: input.network,
    protectedPaths: [...protectedPaths, ...deniedWrite],
    readOnly: [...readOnly].filter((p) => !covered(p)),
    placeholders: [...placeholders].filter((p) => !covered(p)),
    hiddenDirs: [...hiddenDirs].filter((p) => !underHidden(p)),
    hiddenFiles: [...hiddenFiles].filter((p) => !underHidden(p)),
    readable: [...readable],
  };
}

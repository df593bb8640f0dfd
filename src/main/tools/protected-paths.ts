/**
 * The one list of workspace paths that make git, the workbench or another agent run code or change
 * policy later. Approval asks a person before any tool writes them (risk.ts); the sandbox binds them
 * read-only, and keeps the missing ones from being created, for commands (docs/tools.md#sandbox).
 */

import { lstatSync } from 'node:fs';
import path from 'node:path';
import { realTargetSync } from './real-target.ts';
import { isInside } from './path-guard.ts';

/** One protected path, relative to the workspace root, `/`-separated. */
export interface ProtectedPath {
  readonly path: string;
  /** Completes "<path> …" in the reason a person is asked. */
  readonly why: string;
  /** False when only the sandbox protects it (a write tool there needs no person). */
  readonly ask?: false;
  /** False when the sandbox leaves it writable (commands such as `git commit` must write `.git`). */
  readonly sandbox?: false;
  /**
   * False when the sandbox keeps it read-only only where it exists: no placeholder is made for it
   * (an empty file at `.vscode` during every command would disturb the editor watching it), since
   * creating it does nothing by itself.
   */
  readonly placeholder?: false;
  /** Also protected at any depth (a nested repository's `.git/hooks`, a package's `.husky`), for the tools. */
  readonly anyDepth?: true;
}

const SHELL_STARTUP = 'is a shell startup file (it runs in every new shell)';
const AGENT_HOOKS = 'is an agent definition (its frontmatter hooks run as programs)';
const SKILL_HOOKS = 'is a skill (its frontmatter hooks run as programs)';

/** Contract: every entry covers its whole subtree; matching is case-insensitive. */
export const PROTECTED_PATHS: readonly ProtectedPath[] = [
  {
    path: '.git',
    why: 'is inside .git (git hooks and config run code)',
    sandbox: false,
    anyDepth: true,
  },
  { path: '.git/hooks', why: 'is inside .git (git hooks and config run code)', anyDepth: true },
  { path: '.git/config', why: 'is inside .git (git hooks and config run code)', anyDepth: true },
  {
    path: '.husky',
    why: 'is a git hooks folder (husky points git at it)',
    placeholder: false,
    anyDepth: true,
  },
  {
    path: '.vscode',
    why: 'is editor configuration (its tasks and settings can run programs)',
    placeholder: false,
  },
  {
    path: '.idea',
    why: 'is editor configuration (its run configurations run programs)',
    placeholder: false,
  },
  { path: '.workbench', why: 'is workbench configuration', ask: false },
  { path: '.workbench/hooks', why: 'is a workbench hook (hooks run as programs)' },
  { path: '.workbench/agents', why: AGENT_HOOKS },
  { path: '.workbench/skills', why: SKILL_HOOKS },
  { path: '.workbench/settings.json', why: 'is workbench configuration' },
  { path: '.workbench/settings.yaml', why: 'is workbench configuration' },
  { path: '.workbench/settings.yml', why: 'is workbench configuration' },
  { path: '.workbench/agent.json', why: 'is workbench configuration' },
  { path: '.workbench/agent.yaml', why: 'is workbench configuration' },
  { path: '.workbench/agent.yml', why: 'is workbench configuration' },
  // Claude Code's own folder, protected whole as Claude Code protects it; agents and skills too,
  // which Claude Code lets auto modes write: here their frontmatter hooks run outside the sandbox.
  { path: '.claude', why: 'is Claude Code configuration' },
  { path: '.claude/settings.json', why: 'is Claude Code hook configuration' },
  { path: '.claude/settings.local.json', why: 'is Claude Code hook configuration' },
  { path: '.claude/hooks', why: 'is Claude Code hook configuration' },
  { path: '.claude/agents', why: AGENT_HOOKS },
  { path: '.claude/skills', why: SKILL_HOOKS },
  // Kodelet's folder: its hooks (and its plugins' hooks) run as programs; its skills carry hooks.
  { path: '.kodelet', why: 'is Kodelet configuration (its hooks run as programs)' },
  { path: '.kodelet/skills', why: SKILL_HOOKS },
  { path: '.mcp.json', why: 'is MCP server configuration (servers run as programs)' },
  // Claude Code's global config, in the workspace when the workspace is the home folder.
  {
    path: '.claude.json',
    why: 'is Claude Code MCP server configuration (servers run as programs)',
  },
  // The home folder's own, when the workspace is the home folder.
  { path: '.gitconfig', why: 'is git configuration (it can run programs)', placeholder: false },
  // Kept from commands as Claude Code's sandbox keeps them: where submodules are fetched from, and
  // ripgrep's options (`--pre` runs a program) where RIPGREP_CONFIG_PATH names the file.
  { path: '.gitmodules', why: 'is git submodule configuration', ask: false, placeholder: false },
  { path: '.ripgreprc', why: 'is ripgrep configuration', ask: false, placeholder: false },
  ...[
    '.bashrc',
    '.bash_profile',
    '.bash_login',
    '.bash_logout',
    '.profile',
    '.zshrc',
    '.zshenv',
    '.zprofile',
    '.zlogin',
  ].map((path) => ({ path, why: SHELL_STARTUP, placeholder: false as const })),
];

/**
 * The deepest entry a person is asked about that `covers` accepts: it says why (`.claude/hooks/x`
 * is a hook, not just `.claude`). The lengths are compared first, so a shallower entry costs no check.
 */
function deepestCovering(covers: (p: ProtectedPath) => boolean): ProtectedPath | undefined {
  let found: ProtectedPath | undefined;
  for (const p of PROTECTED_PATHS) {
    if (p.ask === false || (found && found.path.length >= p.path.length)) continue;
    if (covers(p)) found = p;
  }
  return found;
}

/** What makes workspace-relative `rel` protected ("is inside .git …"), or undefined. */
export function protectedPathWhy(rel: string): string | undefined {
  const lower = rel.toLowerCase();
  return deepestCovering(
    (p) =>
      lower === p.path ||
      lower.startsWith(`${p.path}/`) ||
      (p.anyDepth === true && (lower.endsWith(`/${p.path}`) || lower.includes(`/${p.path}/`))),
  )?.why;
}

/**
 * What protects real path `real` where a protected path of `root` is a link or lies under one
 * (`.claude -> config`, `.claude/agents -> ../shared/agents`): the workbench reads what the link
 * leads to, so writing there is writing the protected path. Undefined when no link leads there.
 */
export function protectedThroughLink(real: string, root: string): string | undefined {
  const found = deepestCovering(
    (p) =>
      throughLink(root, p.path) && isInside(real, realTargetSync(path.join(root, p.path), root)),
  );
  return found && `${relativeTo(real, root)} ${found.why} (through the link at ${found.path})`;
}

/** Whether any part of workspace-relative `rel` is a symbolic link. */
function throughLink(root: string, rel: string): boolean {
  let at = root;
  for (const part of rel.split('/')) {
    at = path.join(at, part);
    const st = lstatSync(at, { throwIfNoEntry: false });
    if (!st) return false;
    if (st.isSymbolicLink()) return true;
  }
  return false;
}

function relativeTo(real: string, root: string): string {
  return path.relative(root, real).split(path.sep).join('/');
}

/** Why a write to workspace-relative `rel` must be approved by a person, or undefined. */
export function protectedPathReason(rel: string): string | undefined {
  const why = protectedPathWhy(rel);
  return why && `${rel} ${why}`;
}

/**
 * The paths the sandbox binds read-only, relative to the workspace root, and whether a missing one
 * gets a placeholder so it cannot be created.
 */
export function sandboxProtectedPaths(): Array<{ path: string; placeholder: boolean }> {
  return PROTECTED_PATHS.filter((p) => p.sandbox !== false).map((p) => ({
    path: p.path,
    placeholder: p.placeholder !== false,
  }));
}

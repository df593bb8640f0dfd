/**
 * Which files a workspace may feed into the model's context (AGENTS.md, CLAUDE.md, SKILL.md,
 * agent.yaml `memory.paths` / `skills.paths`): only files whose real path lies in the workspace or in
 * the user's own agent config folders. A cloned repository can commit `AGENTS.md -> ~/.ssh/id_rsa`;
 * the link survives the clone, so the check is on where the link lands (docs/memory.md).
 */
import { lstatIfAny } from '../fs/stat-if-any.ts';
import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, sep } from 'node:path';
import { claudeConfigDir } from '../env/claude-config-dir.ts';

/**
 * The user's own agent config folders: the workbench home and the folders of the agents whose files
 * the workbench reads (Claude Code, Kodelet) and the cross-agent `~/.agents`. Not `~/.config` as a
 * whole: it holds tokens (`~/.config/gh`).
 */
export function userConfigDirs(home: string): string[] {
  const user = homedir();
  const claude = claudeConfigDir();
  const own = [home, join(user, '.claude'), join(user, '.kodelet'), join(user, '.agents')];
  // A Claude Code folder moved by CLAUDE_CONFIG_DIR is the user's own too.
  return own.includes(claude) ? own : [...own, claude];
}

/** Where a source landed: its real path, or why it is refused. */
export type SourceCheck = { ok: true; real: string } | { ok: false; real?: string; reason: string };

const inside = (p: string, dir: string) =>
  p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/**
 * Resolves `path` and checks it lies in `workspace` or a user config folder.
 * Contract: never rejects; a missing file is `{ ok: false, reason: 'missing' }`.
 */
export async function checkSource(
  path: string,
  workspace: string,
  home: string,
): Promise<SourceCheck> {
  // Most optional memory files do not exist: tell so without the cost of a thrown error.
  if (!lstatIfAny(path)) return { ok: false, reason: 'missing' };
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return { ok: false, reason: 'missing' };
  }
  const realRoots = await allowedRoots(workspace, home);
  if (realRoots.some((r) => inside(real, r))) return { ok: true, real };
  return {
    ok: false,
    real,
    reason: `refused: ${path} resolves to ${real}, outside the workspace and the user's config folders`,
  };
}

/** Real paths of the allowed folders, resolved once per workspace and home (checked on every request). */
const rootsCache = new Map<string, Promise<string[]>>();
function allowedRoots(workspace: string, home: string): Promise<string[]> {
  const key = `${workspace}\0${home}`;
  let roots = rootsCache.get(key);
  if (!roots) {
    const dirs = [workspace, ...userConfigDirs(home)];
    roots = Promise.all(dirs.map((r) => realpath(r).catch(() => r)));
    rootsCache.set(key, roots);
  }
  return roots;
}

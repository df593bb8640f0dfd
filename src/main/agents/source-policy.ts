/**
 * Which files a workspace may feed into the model's context (AGENTS.md, CLAUDE.md, SKILL.md,
 * agent.yaml `memory.paths` / `skills.paths`): only files whose real path lies in the workspace or in
 * the user's own agent config folders. A cloned repository can commit `AGENTS.md -> ~/.ssh/id_rsa`;
 * the link survives the clone, so the check is on where the link lands (docs/memory.md).
 */
import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, sep } from 'node:path';

/**
 * The user's own agent config folders: the workbench home and the folders of the agents whose files
 * the workbench reads (Claude Code, Kodelet) and the cross-agent `~/.agents`. Not `~/.config` as a
 * whole: it holds tokens (`~/.config/gh`).
 */
export function userConfigDirs(home: string): string[] {
  const user = homedir();
  return [home, join(user, '.claude'), join(user, '.kodelet'), join(user, '.agents')];
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
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return { ok: false, reason: 'missing' };
  }
  const roots = [workspace, ...userConfigDirs(home)];
  const realRoots = await Promise.all(roots.map((r) => realpath(r).catch(() => r)));
  if (realRoots.some((r) => inside(real, r))) return { ok: true, real };
  return {
    ok: false,
    real,
    reason: `refused: ${path} resolves to ${real}, outside the workspace and the user's config folders`,
  };
}

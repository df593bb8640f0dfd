/**
 * Where the skills panel may write and delete: only a SKILL.md directly inside a skill folder that is
 * itself directly inside a known skill root. Everything else is refused, symlink tricks included.
 */
import { readdir, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { skillRoots, type SkillSource } from '../../skills/loader.ts';
import { WorkbenchError } from '../../errors.ts';

export interface SkillLocation {
  /** Real path of SKILL.md. */
  file: string;
  /** Real path of the skill folder. */
  dir: string;
  /** The root entry naming the folder (a symlink when the folder is linked in). */
  entry: string;
  linked: boolean;
  source: SkillSource;
}

export interface SkillRootsOptions {
  home: string;
  workspace: string;
  extraPaths?: readonly string[];
}

/**
 * Finds the skill whose SKILL.md is `path` inside a known root.
 * Contract: rejects (WorkbenchError forbidden) for anything not a SKILL.md of a skill folder in a known root.
 */
export async function locateSkill(path: string, opts: SkillRootsOptions): Promise<SkillLocation> {
  const refuse = () =>
    new WorkbenchError('forbidden', `not a SKILL.md inside a known skill folder: ${path}`);
  const file = await realpath(path).catch(() => undefined);
  if (!file || basename(file) !== 'SKILL.md') throw refuse();
  const dir = dirname(file);
  for (const root of skillRoots(opts)) {
    const realRoot = await realpath(root.dir).catch(() => undefined);
    if (!realRoot || dir === realRoot) continue;
    if (dirname(dir) === realRoot)
      return { file, dir, entry: dir, linked: false, source: root.source };
    // A folder linked into the root: the root's entry is the link, the files live elsewhere.
    for (const name of await readdir(realRoot).catch(() => [] as string[])) {
      const entry = join(realRoot, name);
      if ((await realpath(entry).catch(() => undefined)) === dir)
        return { file, dir, entry, linked: true, source: root.source };
    }
  }
  throw refuse();
}

/**
 * The skills a user may invoke in a workspace (docs/skills.md#invoking-a-skill), found as a run of
 * that workspace finds its skills: the agent's `skills.paths` and the working directories included.
 */
import type { WorkbenchSettings } from '../../shared/types/index.ts';
import { loadSkills } from '../skills/loader.ts';
import { invocableSkills, type InvocableSkill } from '../skills/invocation.ts';
import { workspaceWorkingDirs } from '../middleware/claude-working-dirs.ts';

export async function workspaceInvocableSkills(o: {
  workspace: string;
  /** $WORKBENCH_HOME. */
  home: string;
  settings: WorkbenchSettings;
  trusted: boolean;
  /** The agent profile's `skills.paths`. */
  extraPaths?: readonly string[];
  /** The run's `--add-dir` folders. */
  addDirs?: readonly string[];
}): Promise<InvocableSkill[]> {
  const { dirs } = await workspaceWorkingDirs({ ...o, workbenchHome: o.home });
  const workingDirs = [...new Set([...(o.addDirs ?? []), ...dirs])];
  const { skills } = await loadSkills({
    home: o.home,
    workspace: o.workspace,
    extraPaths: o.extraPaths,
    workingDirs,
    disabled: o.settings.disabled_skills,
  });
  return invocableSkills(skills, { workspace: o.workspace, workingDirs, trusted: o.trusted });
}

/** `workbench skills list [--workspace DIR] [--json]`: the skills an agent in DIR would see, and their problems. */
import { resolve } from 'node:path';
import { loadAgentProfile } from '../../agents/profile.ts';
import { loadSkills } from '../../skills/loader.ts';
import { createSettingsStore } from '../../store/settings-store.ts';
import { resolveHome } from '../../store/paths.ts';
import { parse } from '../args.ts';
import { UsageError, type CliCommand } from '../types.ts';

/** Contract: exit 0 even when skills have problems (they are listed); 2 on bad usage. */
export const skillsCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub !== 'list') throw new UsageError('expected "skills list [--workspace DIR] [--json]"');
  const { values, positionals } = parse(rest, { workspace: { type: 'string' }, json: { type: 'boolean' } });
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const workspace = resolve(io.cwd, values.workspace ?? '.');
  const home = resolveHome(io.env);
  const { profile, diagnostics: profileProblems } = await loadAgentProfile(workspace);
  // agent.yaml problems matter here: a broken skills.paths silently hides skills.
  for (const line of profileProblems) io.stderr(`workbench skills: ${line}\n`);
  const result = await loadSkills({ home, workspace, extraPaths: profile.skills.paths, disabled: disabledSkills(home) });
  if (values.json) {
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  if (result.skills.length === 0) io.stdout('no skills found\n');
  for (const s of result.skills) {
    io.stdout(`${s.name}${s.enabled ? '' : ' (disabled)'}  [${s.source}]  ${s.path}\n    ${s.description}\n`);
  }
  if (result.diagnostics.length) io.stdout('\nproblems:\n');
  for (const d of result.diagnostics) io.stdout(`  ${d.severity}: ${d.path}: ${d.message}\n`);
  return 0;
};

function disabledSkills(home: string): string[] {
  try {
    return createSettingsStore(home).get().disabled_skills;
  } catch {
    return [];
  }
}

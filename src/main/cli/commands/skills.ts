/** `workbench skills list [--workspace DIR] [--json]`: the skills an agent in DIR would see, and their problems. */
import { resolve } from 'node:path';
import { loadAgentProfile } from '../../agents/profile.ts';
import { parse } from '../args.ts';
import { withWorkbench } from '../open-workbench.ts';
import { UsageError, type CliCommand } from '../types.ts';

/** Contract: exit 0 even when skills have problems (they are listed); 2 on bad usage. */
export const skillsCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub !== 'list') throw new UsageError('expected "skills list [--workspace DIR] [--json]"');
  const { values, positionals } = parse(rest, {
    workspace: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const workspace = resolve(io.cwd, values.workspace ?? '.');
  // agent.yaml problems matter here: a broken skills.paths silently hides skills.
  const { diagnostics: profileProblems } = await loadAgentProfile(workspace);
  for (const line of profileProblems) io.stderr(`workbench skills: ${line}\n`);
  const result = await withWorkbench(io, { workspace }, (wb) => wb.skills.list({ workspace }));
  if (values.json) {
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  if (result.skills.length === 0) io.stdout('no skills found\n');
  for (const s of result.skills) {
    io.stdout(
      `${s.name}${s.enabled ? '' : ' (disabled)'}  [${s.source}]  ${s.path}\n    ${s.description}\n`,
    );
  }
  if (result.diagnostics.length) io.stdout('\nproblems:\n');
  for (const d of result.diagnostics) io.stdout(`  ${d.severity}: ${d.path}: ${d.message}\n`);
  return 0;
};

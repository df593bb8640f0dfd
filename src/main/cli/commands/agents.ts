/** `workbench agents list [--workspace DIR] [--json]`: the agent profiles a run in DIR would see (docs/agents.md). */
import { resolve } from 'node:path';
import { parse } from '../args.ts';
import { withWorkbench } from '../open-workbench.ts';
import { UsageError, type CliCommand } from '../types.ts';

/** Contract: exit 0 even when profiles have problems (they are listed on stderr); 2 on bad usage. */
export const agentsCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub !== 'list') throw new UsageError('expected "agents list [--workspace DIR] [--json]"');
  const { values, positionals } = parse(rest, {
    workspace: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const workspace = resolve(io.cwd, values.workspace ?? '.');
  const result = await withWorkbench(io, { workspace }, (wb) => wb.agents.list({ workspace }));
  for (const line of result.diagnostics) io.stderr(`workbench agents: ${line}\n`);
  if (values.json) {
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  for (const a of result.agents) {
    const notes = [
      a.source,
      a.inert ? 'inert: the workspace is not trusted' : '',
      a.model ? `model ${a.model}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    io.stdout(`${a.name}  [${notes}]  ${a.path}\n    ${a.description || '(no description)'}\n`);
    if (a.tools) io.stdout(`    tools: ${a.tools.join(', ')}\n`);
    if (a.script) io.stdout(`    script: ${a.script}\n`);
  }
  return 0;
};

/**
 * `workbench trust DIR | --list | --revoke DIR`: workspace trust kept in $WORKBENCH_HOME/trust.json.
 * Hooks a workspace brings (either format) run only once it is trusted; `run --trust` trusts for one run.
 */
import { resolve } from 'node:path';
import { parse } from '../args.ts';
import { withWorkbench } from '../open-workbench.ts';
import { UsageError, type CliCommand } from '../types.ts';

/** The `trust` command. Contract: only this command (and the app's trust prompt) writes trust. */
export const trustCommand: CliCommand = async (argv, io) => {
  const { values, positionals } = parse(argv, {
    list: { type: 'boolean' },
    revoke: { type: 'string' },
    json: { type: 'boolean' },
  });
  const dir = positionals[0];
  if (!values.list && !values.revoke && (!dir || positionals.length > 1)) {
    throw new UsageError('expected "trust DIR", "trust --list" or "trust --revoke DIR"');
  }
  return withWorkbench(io, {}, async (wb) => {
    if (values.list) {
      const list = wb.trust.list();
      if (values.json) io.stdout(`${JSON.stringify(list, null, 2)}\n`);
      else if (list.length === 0) io.stdout('no trusted workspaces\n');
      else
        for (const w of list)
          io.stdout(
            `${w.path}  (since ${new Date(w.trusted_at).toISOString().slice(0, 16).replace('T', ' ')})\n`,
          );
      return 0;
    }
    if (values.revoke) {
      const before = new Set(wb.trust.list().map((w) => w.path));
      const status = await wb.trust.set({
        workspace: resolve(io.cwd, values.revoke),
        trusted: false,
      });
      io.stdout(
        before.has(status.workspace)
          ? `no longer trusted: ${status.workspace}\n`
          : `was not trusted: ${status.workspace}\n`,
      );
      return 0;
    }
    const status = await wb.trust.set({ workspace: resolve(io.cwd, dir!), trusted: true });
    io.stdout(
      `trusted: ${status.workspace}\nits .workbench/hooks and .claude/.workbench settings hooks will now run\n`,
    );
    return 0;
  });
};

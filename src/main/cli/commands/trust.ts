/**
 * `workbench trust DIR | --list | --revoke DIR`: workspace trust kept in $WORKBENCH_HOME/trust.json.
 * Hooks a workspace brings (either dialect) run only once it is trusted; `run --trust` trusts for one run.
 */
import { resolve } from 'node:path';
import { createTrustStore } from '../../user-hooks/trust-store.ts';
import { resolveHome } from '../../store/paths.ts';
import { parse } from '../args.ts';
import { UsageError, type CliCommand } from '../types.ts';

/** The `trust` command. Contract: only this command (and the app's trust prompt) writes trust. */
export const trustCommand: CliCommand = async (argv, io) => {
  const { values, positionals } = parse(argv, { list: { type: 'boolean' }, revoke: { type: 'string' }, json: { type: 'boolean' } });
  const store = createTrustStore(resolveHome(io.env));
  if (values.list) {
    const list = store.list();
    if (values.json) io.stdout(`${JSON.stringify(list, null, 2)}\n`);
    else if (list.length === 0) io.stdout('no trusted workspaces\n');
    else for (const w of list) io.stdout(`${w.path}  (since ${new Date(w.trusted_at).toISOString().slice(0, 16).replace('T', ' ')})\n`);
    return 0;
  }
  if (values.revoke) {
    const dir = resolve(io.cwd, values.revoke);
    const removed = await store.untrust(dir);
    io.stdout(removed ? `no longer trusted: ${dir}\n` : `was not trusted: ${dir}\n`);
    return 0;
  }
  const dir = positionals[0];
  if (!dir || positionals.length > 1) throw new UsageError('expected "trust DIR", "trust --list" or "trust --revoke DIR"');
  const real = await store.trust(resolve(io.cwd, dir));
  io.stdout(`trusted: ${real}\nits .workbench/hooks and .claude/.workbench settings hooks will now run\n`);
  return 0;
};

/**
 * `workbench threads changes ID` and `workbench threads revert ID --call C | --file P | --run R
 * [--force]`: the agent's checkpointed writes in a thread and their revert (docs/tools.md#checkpoints).
 */
import type { Workbench } from '../../api/types.ts';
import { parse } from '../args.ts';
import { UsageError, type CliIo } from '../types.ts';

/** Lists the writes of a thread. Contract: exit 0; `--json` prints the CheckpointView array. */
export function printChanges(wb: Workbench, io: CliIo, threadId: string, json: boolean): number {
  const list = wb.checkpoints.list({ threadId });
  if (json) io.stdout(`${JSON.stringify(list, null, 2)}\n`);
  else if (list.length === 0) io.stdout('the agent has not changed any file in this thread\n');
  else
    for (const c of list)
      io.stdout(
        `${c.run_id}  ${c.tool_call_id}  ${c.change.padEnd(8)}  ${c.path}${c.reverted ? '  (reverted)' : ''}\n`,
      );
  return 0;
}

/**
 * Reverts what the options name. Contract: exit 0 when reverted (or nothing to revert), 1 on a
 * conflict (nothing written; each file that changed since is named), usage error without a target.
 */
export async function revertChanges(
  wb: Workbench,
  io: CliIo,
  threadId: string,
  argv: string[],
): Promise<number> {
  const { values } = parse(argv, {
    call: { type: 'string' },
    file: { type: 'string' },
    run: { type: 'string' },
    force: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (!values.call && !values.file && !values.run)
    throw new UsageError('threads revert needs --call TOOL_CALL_ID, --file PATH or --run RUN_ID');
  const r = await wb.checkpoints.revert({
    threadId,
    toolCallId: values.call,
    path: values.file,
    runId: values.run,
    force: values.force,
  });
  if (values.json) io.stdout(`${JSON.stringify(r, null, 2)}\n`);
  else if (r.status === 'conflict') {
    for (const c of r.conflicts)
      io.stderr(
        `conflict: ${c.path} ${c.actual === null ? 'was deleted' : 'changed'} since the agent wrote it\n`,
      );
    io.stderr('nothing was reverted; run again with --force to overwrite\n');
  } else if (r.status === 'nothing') io.stdout('nothing to revert\n');
  else io.stdout(r.reverted.map((p) => `reverted ${p}\n`).join(''));
  for (const p of r.unavailable) io.stderr(`not reverted: ${p} was too large to keep\n`);
  return r.status === 'conflict' ? 1 : 0;
}

/** `workbench threads list|show|resume|meta|delete|changes|revert`: the threads kept in $WORKBENCH_HOME/workbench.db. */
import { prettyPrint } from '../../agent/messages.ts';
import { metaPairs, parse } from '../args.ts';
import { withWorkbench } from '../open-workbench.ts';
import { UsageError, type CliCommand } from '../types.ts';
import { printChanges, revertChanges } from './thread-changes.ts';

const SUBCOMMANDS = ['list', 'show', 'resume', 'meta', 'delete'];

export const threadsCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub === 'resume') {
    // The same run as `workbench run --resume ID`, with its flags.
    const [id, ...flags] = rest;
    if (!id || id.startsWith('-')) throw new UsageError('threads resume needs a thread ID');
    const { runCommand } = await import('./run.ts');
    return runCommand(['--resume', id, ...flags], io);
  }
  if (sub === 'changes' || sub === 'revert') {
    const [threadId, ...more] = rest;
    if (!threadId || threadId.startsWith('-')) throw new UsageError(`threads ${sub} needs a thread ID`);
    return withWorkbench(io, {}, (wb) =>
      sub === 'changes'
        ? printChanges(wb, io, threadId, more.includes('--json'))
        : revertChanges(wb, io, threadId, more),
    );
  }
  const { values, positionals } = parse(rest, {
    json: { type: 'boolean' },
    all: { type: 'boolean' },
    search: { type: 'string' },
    workspace: { type: 'string' },
    meta: { type: 'string', multiple: true },
    remove: { type: 'string', multiple: true },
  });
  if (!SUBCOMMANDS.includes(sub ?? ''))
    throw new UsageError(
      'expected "threads list", "threads show ID", "threads resume ID", "threads meta ID", "threads delete ID", "threads changes ID" or "threads revert ID"',
    );
  const id = positionals[0];
  if (sub !== 'list' && !id) throw new UsageError(`threads ${sub} needs a thread ID`);
  const metadata = metaPairs(values.meta);
  return withWorkbench(io, {}, (wb) => {
    if (sub === 'list') {
      const threads = wb.threads.list({
        search: values.search,
        workspace: values.workspace,
        includeChildren: values.all,
        metadata,
      });
      if (values.json) io.stdout(`${JSON.stringify(threads, null, 2)}\n`);
      else if (threads.length === 0) io.stdout('no threads yet\n');
      else
        for (const t of threads) {
          const tags = Object.entries(t.metadata ?? {})
            .map(([k, v]) => `${k}=${v}`)
            .join(' ');
          const state = t.last_run_state === 'interrupted' ? '  [interrupted]' : '';
          io.stdout(
            `${t.thread_id}  ${new Date(t.updated_at).toISOString().slice(0, 16).replace('T', ' ')}  ${String(t.message_count).padStart(4)} msgs  ${t.title || '(untitled)'}${t.parent_thread_id ? `  (subagent of ${t.parent_thread_id})` : ''}${state}${tags ? `  ${tags}` : ''}\n`,
          );
        }
      return 0;
    }
    if (sub === 'meta') {
      const result = wb.threads.setMetadata({
        threadId: id!,
        set: metadata,
        remove: values.remove,
      });
      io.stdout(`${JSON.stringify(result, null, values.json ? 2 : undefined)}\n`);
      return 0;
    }
    const state = wb.threads.get({ threadId: id! });
    if (!state) {
      io.stderr(`workbench threads: unknown thread ${id}\n`);
      return 1;
    }
    if (sub === 'delete') {
      const subagents = wb.threads.children({ threadId: id! }).length;
      wb.threads.delete({ threadId: id! });
      const also = subagents ? ` and its subagent threads` : '';
      io.stdout(`deleted thread ${id}${also}\n`);
      return 0;
    }
    const summary = wb.threads.summary({ threadId: id! });
    const children = wb.threads.children({ threadId: id! });
    if (values.json) {
      const lineage = {
        agent: summary?.agent ?? 'main',
        ...(summary?.parent_thread_id ? { parent_thread_id: summary.parent_thread_id } : {}),
        ...(summary?.parent_tool_call_id ? { parent_tool_call_id: summary.parent_tool_call_id } : {}),
      };
      const runs = wb.threads.runs({ threadId: id! });
      io.stdout(
        `${JSON.stringify({ ...state, ...lineage, children, metadata: summary?.metadata ?? {}, runs }, null, 2)}\n`,
      );
      return 0;
    }
    if (summary?.parent_thread_id) io.stdout(`[subagent ${summary.agent} of ${summary.parent_thread_id}]\n`);
    if (summary?.last_run_state === 'interrupted')
      io.stdout(
        `(the last run was interrupted; continue it with: workbench threads resume ${id})\n\n`,
      );
    io.stdout(prettyPrint(state.messages));
    if (children.length) {
      io.stdout(`\n[Subagents]\n${children.map((c) => `  ${c.thread_id}  ${c.agent}  ${c.title}`).join('\n')}\n`);
    }
    if (state.todos.length) {
      io.stdout(
        `\n[Todos]\n${state.todos.map((t) => `  ${t.status.padEnd(11)} ${t.title}`).join('\n')}\n`,
      );
    }
    return 0;
  });
};

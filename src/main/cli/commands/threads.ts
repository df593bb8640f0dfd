/** `workbench threads list|show`: the threads kept in $WORKBENCH_HOME/workbench.db. */
import { prettyPrint } from '../../agent/messages.ts';
import { parse } from '../args.ts';
import { withWorkbench } from '../open-workbench.ts';
import { UsageError, type CliCommand } from '../types.ts';

export const threadsCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  const { values, positionals } = parse(rest, {
    json: { type: 'boolean' },
    all: { type: 'boolean' },
    search: { type: 'string' },
    workspace: { type: 'string' },
  });
  if (sub !== 'list' && sub !== 'show')
    throw new UsageError('expected "threads list" or "threads show ID"');
  const id = positionals[0];
  if (sub === 'show' && !id) throw new UsageError('threads show needs a thread ID');
  return withWorkbench(io, {}, (wb) => {
    if (sub === 'list') {
      const threads = wb.threads.list({
        search: values.search,
        workspace: values.workspace,
        includeChildren: values.all,
      });
      if (values.json) io.stdout(`${JSON.stringify(threads, null, 2)}\n`);
      else if (threads.length === 0) io.stdout('no threads yet\n');
      else
        for (const t of threads) {
          io.stdout(
            `${t.thread_id}  ${new Date(t.updated_at).toISOString().slice(0, 16).replace('T', ' ')}  ${String(t.message_count).padStart(4)} msgs  ${t.title || '(untitled)'}${t.parent_thread_id ? `  (subagent of ${t.parent_thread_id})` : ''}\n`,
          );
        }
      return 0;
    }
    const state = wb.threads.get({ threadId: id! });
    if (!state) {
      io.stderr(`workbench threads: unknown thread ${id}\n`);
      return 1;
    }
    const summary = wb.threads.summary({ threadId: id! });
    const children = wb.threads.children({ threadId: id! });
    if (values.json) {
      const lineage = {
        agent: summary?.agent ?? 'main',
        ...(summary?.parent_thread_id ? { parent_thread_id: summary.parent_thread_id } : {}),
        ...(summary?.parent_tool_call_id ? { parent_tool_call_id: summary.parent_tool_call_id } : {}),
      };
      io.stdout(`${JSON.stringify({ ...state, ...lineage, children }, null, 2)}\n`);
      return 0;
    }
    if (summary?.parent_thread_id) io.stdout(`[subagent ${summary.agent} of ${summary.parent_thread_id}]\n`);
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

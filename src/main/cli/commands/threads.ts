/** `workbench threads list|show|changes|revert`: the threads kept in $WORKBENCH_HOME/workbench.db. */
import { prettyPrint } from '../../agent/messages.ts';
import { parse } from '../args.ts';
import { withWorkbench } from '../open-workbench.ts';
import { UsageError, type CliCommand } from '../types.ts';
import { printChanges, revertChanges } from './thread-changes.ts';

export const threadsCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
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
    search: { type: 'string' },
    workspace: { type: 'string' },
  });
  if (sub !== 'list' && sub !== 'show')
    throw new UsageError('expected "threads list" or "threads show ID"');
  const id = positionals[0];
  if (sub === 'show' && !id) throw new UsageError('threads show needs a thread ID');
  return withWorkbench(io, {}, (wb) => {
    if (sub === 'list') {
      const threads = wb.threads.list({ search: values.search, workspace: values.workspace });
      if (values.json) io.stdout(`${JSON.stringify(threads, null, 2)}\n`);
      else if (threads.length === 0) io.stdout('no threads yet\n');
      else
        for (const t of threads) {
          io.stdout(
            `${t.thread_id}  ${new Date(t.updated_at).toISOString().slice(0, 16).replace('T', ' ')}  ${String(t.message_count).padStart(4)} msgs  ${t.title || '(untitled)'}\n`,
          );
        }
      return 0;
    }
    const state = wb.threads.get({ threadId: id! });
    if (!state) {
      io.stderr(`workbench threads: unknown thread ${id}\n`);
      return 1;
    }
    if (values.json) {
      io.stdout(`${JSON.stringify(state, null, 2)}\n`);
      return 0;
    }
    io.stdout(prettyPrint(state.messages));
    if (state.todos.length) {
      io.stdout(
        `\n[Todos]\n${state.todos.map((t) => `  ${t.status.padEnd(11)} ${t.title}`).join('\n')}\n`,
      );
    }
    return 0;
  });
};

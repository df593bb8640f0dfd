/**
 * `workbench compact THREAD_ID [--model NAME] [--base-url URL]`: summarizes a thread's older messages
 * now and stores the summary, so the next run sends the summary instead of them. The thread keeps
 * its full history.
 */
import { parse } from '../args.ts';
import { withWorkbench } from '../open-workbench.ts';
import { UsageError, type CliCommand } from '../types.ts';

/** The `compact` command. Contract: exit 0 compacted or too short, 1 when the summary fails, 2 unknown thread. */
export const compactCommand: CliCommand = async (argv, io) => {
  const { values, positionals } = parse(argv, {
    model: { type: 'string' },
    'base-url': { type: 'string' },
  });
  const threadId = positionals[0];
  if (!threadId || positionals.length > 1) throw new UsageError('expected "compact THREAD_ID"');
  const result = await withWorkbench(
    io,
    { model: values.model, baseURL: values['base-url'] },
    (wb) => wb.threads.compact({ threadId }),
  );
  if (!result.compacted) io.stdout(`thread ${threadId} is too short to compact\n`);
  else {
    io.stdout(
      `compacted thread ${threadId}: ${result.summarized_messages} messages summarized (first ${result.upto} of the thread), ~${result.before_tokens} → ~${result.after_tokens} tokens\n`,
    );
  }
  return 0;
};

/**
 * Forking a thread (edit-and-resend, regenerate): a new thread in the same workspace holding the
 * first `upTo` messages, so the original stays as it was (docs/architecture.md).
 */
import type { ThreadSummary } from '../../shared/types/index.ts';
import { WorkbenchError } from '../errors.ts';
import type { ThreadStore } from '../store/types.ts';
import type { TransactionRunner } from '../store/transaction.ts';

/**
 * Copies messages [0, upTo) of `threadId` into a new thread titled after the original.
 * Contract: `upTo` must point at a user message (or the end), so the copy never ends inside a tool
 * round (every tool call in it is answered); WorkbenchError not_found / invalid_args otherwise.
 */
export function forkThread(
  threads: ThreadStore,
  transaction: TransactionRunner['run'],
  args: { threadId: string; upTo: number },
): ThreadSummary {
  const summary = threads.summary(args.threadId);
  const state = threads.get(args.threadId);
  if (!summary || !state) throw new WorkbenchError('not_found', `unknown thread ${args.threadId}`);
  const { messages } = state;
  const upTo = args.upTo;
  if (
    upTo < 0 ||
    upTo > messages.length ||
    (upTo < messages.length && messages[upTo]!.role !== 'user')
  )
    throw new WorkbenchError(
      'invalid_args',
      'a thread can only be forked before one of its user messages',
    );
  return transaction(() => {
    const copy = threads.loadOrCreate(undefined, summary.workspace);
    threads.appendMessages(
      copy.thread_id,
      messages.slice(0, upTo).map((m) => ({ ...m })),
    );
    threads.setTitle(copy.thread_id, `${summary.title || 'Thread'} (fork)`.slice(0, 200));
    return threads.summary(copy.thread_id)!;
  });
}

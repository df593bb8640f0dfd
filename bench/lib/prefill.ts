/** Threads pre-filled with synthetic conversations, written through their own connection. */
import { homePaths, openDatabase } from '../../src/main/store/index.ts';
import { syntheticThread } from './messages.ts';

/**
 * `count` new threads of `size` messages each in `home`; returns their ids. A long thread has lived
 * through compaction: it carries a stored summary of all but its last exchange, as the summarization
 * hook leaves it (otherwise a run's first round would summarize 2,000 messages).
 */
export function prefillThreads(
  home: string,
  workspace: string,
  size: number,
  count: number,
): string[] {
  const db = openDatabase(homePaths(home).db);
  try {
    return Array.from({ length: count }, (_, i) => {
      const id = db.threads.loadOrCreate(undefined, workspace).thread_id;
      const msgs = syntheticThread(size, i);
      db.threads.appendMessages(id, msgs);
      if (size > 100)
        db.threads.setCompaction(id, {
          upto: msgs.findLastIndex((m) => m.role === 'user'),
          content: 'Summary: the user asked to read the router and related files; each was read.',
          created_at: Date.now(),
        });
      return id;
    });
  } finally {
    db.close();
  }
}

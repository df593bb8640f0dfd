/**
 * Checkpoints the WAL on a worker thread instead of inside a COMMIT (docs/performance.md). SQLite's
 * automatic checkpoint runs in the connection whose commit pushed the WAL past 1,000 pages: that
 * commit then copies ~4 MB into the database file and syncs it on the main thread, 3–8 ms once
 * every few dozen rounds. Here the main connection's automatic checkpoint is off; after about as
 * many pages a worker with its own connection runs PASSIVE checkpoints (they never block a writer
 * or a reader) until one finds nothing new, so the whole WAL is in the database file and the next
 * commit starts it over from its beginning (writing over a file's pages costs half of growing it).
 * The worker is plain JavaScript in a string (run with `eval: true`), started at the first
 * checkpoint: a short `workbench run` never starts it.
 */
import { Worker } from 'node:worker_threads';

/** Pages the WAL may hold before a checkpoint: SQLite's own automatic checkpoint's default. */
export const CHECKPOINT_PAGES = 1000;

/** Most passes of one checkpoint; each copies what the main thread committed during the last. */
const MAX_PASSES = 32;

export interface WalCheckpointer {
  /** Counts a commit; every so many (about CHECKPOINT_PAGES pages) starts a checkpoint. Never throws. */
  committed(): void;
  /** Ends the worker (its connection closes). */
  close(): void;
}

export interface WalCheckpointerOptions {
  /** Commits before the first checkpoint (later ones adapt to the pages a commit writes). */
  firstAfter?: number;
  /** Called once when the worker cannot checkpoint: the caller turns the automatic checkpoint back on. */
  onFailed(reason: string): void;
}

/** The worker's answer: the pages in the WAL at the first pass, or why it could not checkpoint. */
type WorkerAnswer = { pages: number } | { error: string };

/** Creates the checkpointer for the database at `file`. */
export function createWalCheckpointer(file: string, opts: WalCheckpointerOptions): WalCheckpointer {
  let worker: Worker | undefined;
  let every = opts.firstAfter ?? 100;
  let commits = 0;
  let running = false;
  let stopped = false;

  function stop(reason?: string): void {
    if (stopped) return;
    stopped = true;
    void worker?.terminate();
    worker = undefined;
    if (reason !== undefined) opts.onFailed(reason);
  }

  function start(): Worker {
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { file } });
    w.unref();
    w.on('message', (a: WorkerAnswer) => {
      if ('error' in a) return stop(a.error);
      // The next checkpoint after about CHECKPOINT_PAGES pages, at the pages per commit seen.
      if (a.pages > 0)
        every = Math.max(8, Math.min(4096, Math.round((every * CHECKPOINT_PAGES) / a.pages)));
      running = false;
    });
    w.on('error', (e) => stop(e.message));
    w.on('exit', (code) => stop(`checkpoint worker exited (${code})`));
    return w;
  }

  return {
    committed() {
      if (stopped || running || ++commits < every) return;
      commits = 0;
      running = true;
      try {
        worker ??= start();
        worker.postMessage('checkpoint');
      } catch (e) {
        stop((e as Error).message);
      }
    },
    close: () => stop(),
  };
}

// A pass's `log` is the WAL's pages then: one that finds no more than the last has copied them all.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
let checkpoint;
parentPort.on('message', () => {
  try {
    checkpoint ??= new DatabaseSync(workerData.file, { timeout: 5000 }).prepare(
      'PRAGMA wal_checkpoint(PASSIVE)',
    );
    let pages = -1;
    let seen = -1;
    for (let pass = 0; pass < ${MAX_PASSES}; pass++) {
      const { busy, log } = checkpoint.get();
      if (pages < 0) pages = log;
      if (busy || log <= seen) break;
      seen = log;
    }
    parentPort.postMessage({ pages });
  } catch (e) {
    parentPort.postMessage({ error: String((e && e.message) || e) });
  }
});
`;

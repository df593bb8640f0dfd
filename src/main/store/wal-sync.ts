/**
 * Makes WAL commits durable on libuv's thread pool instead of inside COMMIT (docs/performance.md).
 * A commit made with `synchronous=NORMAL` is in the WAL file, so it survives a killed process at
 * once; `fdatasync` of that file on the pool makes it survive a power loss too, while the main thread
 * goes on (sends the next model request). Requests that arrive while a sync runs share the next one.
 */
import { closeSync, fdatasync, fstatSync, openSync, statSync } from 'node:fs';

export interface WalSyncer {
  /** Starts (or queues) an fdatasync of the WAL file. Contract: never throws. */
  schedule(): void;
  /** Resolves when every commit scheduled so far is on disk (or its sync failed, see `failed`). */
  idle(): Promise<void>;
  /** True after a sync failed: the caller should commit with a synchronous fsync instead. */
  readonly failed: boolean;
  close(): void;
}

/** Creates the syncer for `<database>-wal`. */
export function createWalSyncer(walPath: string): WalSyncer {
  let fd: number | undefined;
  let running = false;
  let again = false;
  let failed = false;
  let closed = false;
  // Callers waiting for the sync that runs now, and for the one queued after it.
  let current: (() => void)[] = [];
  let queued: (() => void)[] = [];

  // SQLite deletes the WAL when the last connection closes and may create a new one later:
  // a descriptor of a removed file would sync nothing that matters, so it follows the path's inode.
  // No WAL file means it was checkpointed into the database and removed: nothing left to sync.
  function currentFd(): number | undefined {
    const onDisk = statSync(walPath, { throwIfNoEntry: false });
    if (fd !== undefined && (!onDisk || fstatSync(fd).ino !== onDisk.ino)) release();
    if (!onDisk) return undefined;
    fd ??= openSync(walPath, 'r');
    return fd;
  }

  function start(): void {
    running = true;
    again = false;
    current = queued;
    queued = [];
    let target: number | undefined;
    try {
      target = currentFd();
    } catch {
      finish(true);
      return;
    }
    if (target === undefined) queueMicrotask(() => finish(false));
    else fdatasync(target, (err) => finish(Boolean(err)));
  }

  function finish(error: boolean): void {
    running = false;
    if (error) failed = true;
    const done = current;
    current = [];
    for (const resolve of done) resolve();
    if (closed) {
      // The database's close checkpointed the WAL into the database file with an fsync.
      for (const resolve of queued) resolve();
      queued = [];
      release();
    } else if (again) start();
  }

  function release(): void {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  }

  return {
    schedule() {
      if (closed) return;
      if (running) again = true;
      else start();
    },
    idle() {
      if (!running) return Promise.resolve();
      return new Promise((resolve) => (again ? queued : current).push(resolve));
    },
    get failed() {
      return failed;
    },
    // The database's own close checkpoints with an fsync; a sync in flight keeps its descriptor
    // until it returns (closing it under the thread pool could sync whatever reuses the number).
    close() {
      closed = true;
      if (!running) release();
    },
  };
}

/**
 * What Claude Code's FileChanged watches while a run goes on (docs/hooks.md): the file names of the
 * FileChanged matchers, in the workspace, and the `watchPaths` hooks returned. Each file's folder is
 * watched (a file that does not exist yet can still appear); an event is checked against the file's
 * last stat, so what is told is a real add, change or removal, once per burst of writes.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { statIfAny } from '../fs/stat-if-any.ts';
import { errorMessage } from '../errors.ts';
import type { ClaudeHandler } from './claude-config.ts';

export type FileEvent = 'add' | 'change' | 'unlink';

/** Writes to one file within this long are one change (editors write a file in several steps). */
const SETTLE_MS = 50;

export interface FileWatch {
  /** Replaces the paths hooks asked for (`watchPaths`); the matchers' files stay watched. */
  setDynamic(paths: readonly string[]): void;
  /** Takes every watched file as it is now, untold (what changed since is never told). */
  absorb(): void;
  close(): void;
}

/** The workspace files the FileChanged matchers name: `.envrc|.env` watches both, by name. */
export function matcherPaths(handlers: readonly ClaudeHandler[], workspace: string): string[] {
  const names = handlers
    .filter((h) => h.event === 'FileChanged')
    .flatMap((h) => (h.matcher ?? '').split('|'))
    .map((n) => n.trim())
    .filter((n) => n !== '' && n !== '*');
  return [...new Set(names.map((n) => resolve(workspace, n)))];
}

/** A file's stat signature; undefined when it does not exist (or cannot be looked at). */
function signature(path: string): string | undefined {
  try {
    const s = statIfAny(path);
    return s ? `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts watching `fixed` (absolute paths); `onEvent` hears each change. A folder that cannot be
 * watched is reported through `onProblem` and left out. Contract: never throws; watchers do not keep
 * the process alive.
 */
export function watchFiles(
  fixed: readonly string[],
  onEvent: (path: string, event: FileEvent) => void,
  onProblem: (message: string) => void,
): FileWatch {
  const seen = new Map<string, string | undefined>();
  const folders = new Map<string, FSWatcher>();
  const pending = new Map<string, NodeJS.Timeout>();
  let dynamic: string[] = [];
  let closed = false;

  const check = (path: string) => {
    pending.delete(path);
    if (closed || !seen.has(path)) return;
    const before = seen.get(path);
    const now = signature(path);
    if (now === before) return;
    seen.set(path, now);
    onEvent(path, before === undefined ? 'add' : now === undefined ? 'unlink' : 'change');
  };
  const settle = (path: string) => {
    clearTimeout(pending.get(path));
    pending.set(path, setTimeout(() => check(path), SETTLE_MS).unref());
  };
  const sync = () => {
    const paths = new Set([...fixed, ...dynamic]);
    for (const p of [...seen.keys()]) if (!paths.has(p)) seen.delete(p);
    for (const p of paths) if (!seen.has(p)) seen.set(p, signature(p));
    const wanted = new Set([...paths].map((p) => dirname(p)));
    for (const [dir, w] of folders) {
      if (wanted.has(dir)) continue;
      w.close();
      folders.delete(dir);
    }
    for (const dir of wanted) {
      if (folders.has(dir)) continue;
      try {
        const w = watch(dir, { persistent: false }, (_type, name) => {
          // Some platforms leave the name out: then every watched file of the folder is checked.
          for (const p of seen.keys()) if (dirname(p) === dir && (!name || basename(p) === String(name))) settle(p);
        });
        w.on('error', (err) => onProblem(`cannot watch ${dir} for FileChanged hooks: ${errorMessage(err)}`));
        folders.set(dir, w);
      } catch (err) {
        onProblem(`cannot watch ${dir} for FileChanged hooks: ${errorMessage(err)}`);
      }
    }
  };
  sync();
  return {
    setDynamic(paths) {
      if (closed) return;
      dynamic = paths.filter((p) => isAbsolute(p));
      sync();
    },
    absorb() {
      for (const t of pending.values()) clearTimeout(t);
      pending.clear();
      for (const p of seen.keys()) seen.set(p, signature(p));
    },
    close() {
      closed = true;
      for (const t of pending.values()) clearTimeout(t);
      for (const w of folders.values()) w.close();
      folders.clear();
    },
  };
}

/** The watches of the runs going on, each with the FileChanged calls it set off, one after another. */
export interface RunWatches {
  /**
   * Watches `fixed` and `asked` for the run; `tell` runs the handlers of one change and resolves the
   * `watchPaths` they returned, if any (they replace `asked`).
   */
  start(
    runId: string,
    paths: { fixed: readonly string[]; asked: readonly string[] },
    tell: (path: string, event: FileEvent) => Promise<string[] | undefined>,
    onProblem: (message: string) => void,
  ): void;
  /** Stops watching; waits for a call still going, at most `capMs`. */
  stop(runId: string, capMs: number): Promise<void>;
}

export function createRunWatches(): RunWatches {
  const runs = new Map<string, { watch: FileWatch; queue: Promise<void> }>();
  return {
    start(runId, paths, tell, onProblem) {
      const entry = { queue: Promise.resolve() } as { watch: FileWatch; queue: Promise<void> };
      // While handlers run, what changes is theirs: a handler that rewrites a watched file (its own,
      // or another handler's) must not set the handlers off again, and again.
      let running = false;
      const changed = (path: string, event: FileEvent) => {
        if (running) return;
        entry.queue = entry.queue
          .then(async () => {
            running = true;
            try {
              const asked = await tell(path, event);
              if (asked) entry.watch.setDynamic(asked);
            } finally {
              entry.watch.absorb();
              running = false;
            }
          })
          .catch(() => undefined);
      };
      entry.watch = watchFiles(paths.fixed, changed, onProblem);
      if (paths.asked.length) entry.watch.setDynamic(paths.asked);
      runs.set(runId, entry);
    },
    async stop(runId, capMs) {
      const entry = runs.get(runId);
      if (!entry) return;
      runs.delete(runId);
      entry.watch.close();
      const cap = new AbortController();
      await Promise.race([entry.queue, sleep(capMs, undefined, { ref: false, signal: cap.signal }).catch(() => undefined)]);
      cap.abort();
    },
  };
}

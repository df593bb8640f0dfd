/**
 * The shadow git store of a workspace (docs/tools.md#checkpoints): a bare repository under
 * `$WORKBENCH_HOME/shadow/<hash of the workspace's real path>/` whose work tree is the workspace,
 * so a command's file changes are the difference between two snapshots. The workspace's own `.git`
 * is never read or written; its `.gitignore` files are respected; symlinks are stored as links.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { safeChildEnv } from '../env/child-env.ts';

/** Bounds under which a snapshot is cheap enough to take before every command. */
export interface ShadowBounds {
  maxFiles: number;
  maxBytes: number;
}

export const DEFAULT_SHADOW_BOUNDS: ShadowBounds = {
  maxFiles: 20_000,
  maxBytes: 200 * 1024 * 1024,
};

/** One file a command changed, with its content and git mode on both sides (null: absent). */
export interface ShadowChange {
  path: string;
  before: Buffer | null;
  beforeMode: string | null;
  after: Buffer | null;
  afterMode: string | null;
}

export type SnapshotResult = { tree: string } | { skipped: string };

export interface ShadowStore {
  /** Contract: never throws; `skipped` names why (no git, over the bounds, a git failure). */
  snapshot(): Promise<SnapshotResult>;
  /**
   * Drops every snapshot but the latest, and removes from disk what only they held once it is
   * older than `graceMs` (a snapshot still in use by a command running now is younger).
   * Contract: never throws; a store that does not exist yet is left alone.
   */
  prune(graceMs?: number): Promise<void>;
  /** The files that differ between two trees, with their contents and modes. */
  changes(before: string, after: string): Promise<ShadowChange[]>;
}

export interface ShadowStoreOptions {
  workbenchHome: string;
  /** The workspace's real path. */
  workspace: string;
  bounds?: ShadowBounds;
  /** Per git call (default 20 s). */
  timeoutMs?: number;
  /** The git program (default `git` on PATH). */
  git?: string;
}

const MEASURE_EVERY_MS = 60_000;
/**
 * Snapshots between two prunes. A command's changes are kept as checkpoints in the database, so
 * older snapshots are never read again; pruning keeps the store at about one copy of the workspace.
 */
export const PRUNE_EVERY = 200;
/** How old what only pruned snapshots held must be before it leaves the disk. */
export const PRUNE_GRACE_MS = 60 * 60 * 1000;

/** Per shadow folder: the last tree and commit, and the last size measure. */
interface ShadowState {
  tree?: string;
  commit?: string;
  /** Snapshots committed since the last prune. */
  since?: number;
  over?: string;
  measuredAt?: number;
  boundsKey?: string;
}
const states = new Map<string, ShadowState>();
const stateOf = (dir: string): ShadowState => {
  let state = states.get(dir);
  if (!state) states.set(dir, (state = {}));
  return state;
};
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs snapshots of one shadow folder one after another: they share its index, and commands run in
 * parallel would otherwise race on it.
 */
function serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const next = (queues.get(key) ?? Promise.resolve()).then(fn, fn);
  queues.set(
    key,
    next.catch(() => undefined),
  );
  return next;
}

/** The shadow folder of a workspace. */
export function shadowDir(workbenchHome: string, workspace: string): string {
  const hash = createHash('sha256').update(workspace).digest('hex').slice(0, 16);
  return path.join(workbenchHome, 'shadow', hash);
}

/** Creates the store; the repository is initialised at the first snapshot. */
export function createShadowStore(o: ShadowStoreOptions): ShadowStore {
  const dir = shadowDir(o.workbenchHome, o.workspace);
  const bounds = o.bounds ?? DEFAULT_SHADOW_BOUNDS;
  const env = safeChildEnv({
    // The user's and the system's git configuration (hooks, fsmonitor, filters) never run here.
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
  });
  const config = [
    ...['core.symlinks=true', 'core.autocrlf=false', 'core.hooksPath=/dev/null', 'gc.auto=0'],
    ...['user.name=workbench', 'user.email=workbench@localhost'],
  ].flatMap((c) => ['-c', c]);
  /** Runs git as is; `git` below names the shadow repository and the workspace as its work tree. */
  const run = (args: string[]): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      execFile(
        o.git ?? 'git',
        [...config, ...args],
        {
          cwd: o.workspace,
          env,
          encoding: 'buffer',
          timeout: o.timeoutMs ?? 20_000,
          maxBuffer: 512 * 1024 * 1024,
        },
        (err, stdout, stderr) => {
          if (err && typeof err.code === 'string') reject(err);
          else if (err) {
            const detail = Buffer.from(stderr).toString('utf8').trim().split('\n')[0];
            reject(new Error(detail || err.message));
          } else resolve(Buffer.from(stdout));
        },
      );
    });
  const git = (args: string[]) => run([`--git-dir=${dir}`, `--work-tree=${o.workspace}`, ...args]);
  const text = async (args: string[]) => (await git(args)).toString('utf8').trim();

  async function init(): Promise<void> {
    if (await fs.stat(path.join(dir, 'HEAD')).catch(() => undefined)) return;
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    await run(['init', '--bare', '--quiet', dir]);
    await fs.mkdir(path.join(dir, 'info'), { recursive: true });
    await fs.writeFile(path.join(dir, 'info', 'exclude'), '.git\n');
  }

  /** Files git would take (tracked or not ignored), counted and sized with lstat only. */
  async function overBounds(): Promise<string | undefined> {
    const list = (await git(['ls-files', '-z', '--cached', '--others', '--exclude-standard']))
      .toString('utf8')
      .split('\0')
      .filter(Boolean);
    const files = new Set(list);
    if (files.size > bounds.maxFiles)
      return `the workspace has more than ${bounds.maxFiles} files outside .gitignore`;
    let bytes = 0;
    for (const f of files) {
      const st = await fs.lstat(path.join(o.workspace, f)).catch(() => undefined);
      bytes += st?.size ?? 0;
      if (bytes > bounds.maxBytes)
        return `the workspace holds more than ${Math.round(bounds.maxBytes / 1024 / 1024)} MB outside .gitignore`;
    }
    return undefined;
  }

  const store: ShadowStore = {
    prune: (graceMs = PRUNE_GRACE_MS) =>
      serial(dir, async () => {
        const state = stateOf(dir);
        state.since = 0;
        try {
          const ref = path.join(dir, 'refs', 'heads', 'snapshots');
          const head = (await fs.readFile(ref, 'utf8').catch(() => '')).trim();
          if (!head) return;
          // The latest snapshot alone, with no history: every older one becomes unreachable.
          const tree = await text(['rev-parse', `${head}^{tree}`]);
          const commit = await text(['commit-tree', tree, '-m', 'snapshot']);
          await fs.writeFile(ref, `${commit}\n`);
          state.commit = commit;
          const expire = new Date(Date.now() - graceMs).toISOString();
          await git(['prune', `--expire=${expire}`]);
        } catch {
          // Pruning is housekeeping: a failure leaves the store as it was, and the next prune tries again.
        }
      }),
    snapshot: () =>
      serial(dir, async () => {
        const state = stateOf(dir);
        try {
          await init();
          // Measured at most once a minute: the bound is about the workspace's size, which a single
          // command rarely changes by much (and a git call that then runs too long hits the timeout).
          const boundsKey = `${bounds.maxFiles}/${bounds.maxBytes}`;
          const stale = !state.measuredAt || Date.now() - state.measuredAt > MEASURE_EVERY_MS;
          if (stale || state.boundsKey !== boundsKey) {
            state.over = await overBounds();
            state.measuredAt = Date.now();
            state.boundsKey = boundsKey;
          }
          if (state.over) return { skipped: state.over };
          await git(['add', '-A', '--ignore-errors', '.']);
          const tree = await text(['write-tree']);
          if (tree === state.tree) return { tree };
          const ref = path.join(dir, 'refs', 'heads', 'snapshots');
          state.commit ??= (await fs.readFile(ref, 'utf8').catch(() => '')).trim();
          const parent = state.commit ? ['-p', state.commit] : [];
          const commit = await text(['commit-tree', tree, ...parent, '-m', 'snapshot']);
          // The ref keeps every snapshot reachable, so git never prunes a tree a revert needs; written
          // as a loose ref directly (snapshots of a folder never run at once) to save a git call.
          await fs.writeFile(ref, `${commit}\n`);
          state.commit = commit;
          state.tree = tree;
          state.since = (state.since ?? 0) + 1;
          // Queued behind this snapshot: the command waiting for it is not held up.
          if (state.since >= PRUNE_EVERY) void store.prune();
          return { tree };
        } catch (err) {
          const e = err as NodeJS.ErrnoException;
          if (e.code === 'ENOENT' && e.syscall?.startsWith('spawn'))
            return { skipped: 'git is not on PATH' };
          return { skipped: `snapshot failed: ${e.message}` };
        }
      }),
    async changes(before, after) {
      if (before === after) return [];
      const raw = (await git(['diff-tree', '-r', '-z', '--no-renames', before, after])).toString(
        'utf8',
      );
      const parts = raw.split('\0');
      const out: ShadowChange[] = [];
      for (let i = 0; i + 1 < parts.length; i += 2) {
        const [srcMode, dstMode, srcSha, dstSha] = parts[i].slice(1).split(' ');
        const file = parts[i + 1];
        const absent = (mode: string) => mode === '000000' || mode === '160000';
        const blob = (mode: string, sha: string) =>
          absent(mode) ? Promise.resolve(null) : git(['cat-file', 'blob', sha]);
        out.push({
          path: file,
          before: await blob(srcMode, srcSha),
          beforeMode: absent(srcMode) ? null : srcMode,
          after: await blob(dstMode, dstSha),
          afterMode: absent(dstMode) ? null : dstMode,
        });
      }
      return out;
    },
  };
  return store;
}

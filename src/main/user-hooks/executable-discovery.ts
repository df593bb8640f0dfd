/**
 * Discovery of executable hooks (docs/hooks.md): executables in `<ws>/.workbench/hooks/` (higher precedence)
 * and `$WORKBENCH_HOME/hooks/`; `<hook> hook` names the event, cached per file identity.
 * An untrusted workspace's executables are never run, not even to ask their type.
 */
import { constants, accessSync, statSync, type Stats } from 'node:fs';
import { readdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { buildHookEnv } from '../env/child-env.ts';
import { runHookProcess } from './runner.ts';
import { EXECUTABLE_EVENTS, isExecutableEvent, type ExecutableEvent } from './executable-events.ts';

export const DISABLE_SUFFIX = '.disable';
const TYPE_QUERY_TIMEOUT_MS = 10_000;

export interface ExecutableHookEntry {
  /** `executable:workspace:<name>` or `executable:user:<name>` (name without `.disable`). */
  id: string;
  name: string;
  path: string;
  scope: 'workspace' | 'user';
  event?: ExecutableEvent;
  /** False when the file name ends with `.disable`. */
  enabled: boolean;
  trusted: boolean;
  /** Set when the hook cannot run: not executable, bad type… */
  problem?: string;
  /** A workspace hook of the same name runs instead. */
  shadowed?: boolean;
}

interface CacheEntry {
  key: string;
  event?: ExecutableEvent;
  problem?: string;
}
// Keyed by device:inode so a `.disable` rename keeps the answer; invalidated by mtime/size/inode change.
const typeCache = new Map<string, CacheEntry>();
const identity = (s: Stats) => `${s.dev}:${s.ino}`;
const version = (s: Stats) => `${s.mtimeMs}:${s.size}:${s.ino}`;

export const executableHookDirs = (workspace: string, home: string) => ({
  workspace: join(workspace, '.workbench', 'hooks'),
  user: join(home, 'hooks'),
});

/** Whether `path` is (still) an executable regular file; used right before every invocation. */
export function isRunnableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function queryType(path: string, cwd: string): Promise<{ event?: ExecutableEvent; problem?: string }> {
  const res = await runHookProcess({ command: path, args: ['hook'], cwd, env: buildHookEnv(cwd), timeoutMs: TYPE_QUERY_TIMEOUT_MS });
  if (res.error) return { problem: res.error };
  if (res.timedOut) return { problem: '`hook` query timed out' };
  if (res.exitCode !== 0) return { problem: `\`hook\` query exited with ${res.exitCode ?? res.signal}` };
  const answer = res.stdout.trim();
  if (isExecutableEvent(answer)) return { event: answer };
  return { problem: `bad hook type "${answer.slice(0, 60)}" (expected one of ${EXECUTABLE_EVENTS.join(', ')})` };
}

async function scanDir(dir: string, scope: 'workspace' | 'user', cwd: string, mayRun: boolean): Promise<ExecutableHookEntry[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch {
    return [];
  }
  const entries = await Promise.all(
    names
      .filter((n) => !n.startsWith('.'))
      .map(async (file): Promise<ExecutableHookEntry | undefined> => {
        const path = join(dir, file);
        let st: Stats;
        try {
          st = await stat(path);
        } catch {
          return undefined; // dangling symlink or raced removal
        }
        if (!st.isFile()) return undefined;
        const enabled = !file.endsWith(DISABLE_SUFFIX);
        const name = enabled ? file : file.slice(0, -DISABLE_SUFFIX.length);
        const entry: ExecutableHookEntry = { id: `executable:${scope}:${name}`, name, path, scope, enabled, trusted: scope === 'user' || mayRun };
        if (!isRunnableFile(path)) {
          entry.problem = 'not executable (chmod +x it)';
          return entry;
        }
        const cached = typeCache.get(identity(st));
        if (cached && cached.key === version(st)) {
          if (cached.event) entry.event = cached.event;
          if (cached.problem) entry.problem = cached.problem;
          return entry;
        }
        // A disabled or untrusted hook is never executed, not even for its type.
        if (!enabled || !entry.trusted) return entry;
        const answer = await queryType(path, cwd);
        typeCache.set(identity(st), { key: version(st), ...answer });
        return { ...entry, ...answer };
      }),
  );
  return entries.filter((e): e is ExecutableHookEntry => e !== undefined);
}

/**
 * Lists every executable hook file of both folders, workspace first, each folder by name.
 * Contract: runs `<hook> hook` only for enabled hooks of the user folder or of a trusted workspace.
 */
export async function discoverExecutableHooks(opts: { workspace: string; home: string; trusted: boolean }): Promise<ExecutableHookEntry[]> {
  const dirs = executableHookDirs(opts.workspace, opts.home);
  const [ws, user] = await Promise.all([
    scanDir(dirs.workspace, 'workspace', opts.workspace, opts.trusted),
    scanDir(dirs.user, 'user', opts.workspace, true),
  ]);
  const active = new Set(ws.filter((e) => e.enabled && e.trusted).map((e) => e.name));
  for (const e of user) if (active.has(e.name)) e.shadowed = true;
  return [...ws, ...user];
}

/** Whether an entry takes part in runs. */
export const isExecutableRunnable = (e: ExecutableHookEntry): boolean => e.enabled && e.trusted && !e.problem && !e.shadowed && e.event !== undefined;

/**
 * Turns an executable hook on or off by renaming it to/from `<name>.disable`; returns the new path.
 * Contract: a no-op when already in that state; refuses to overwrite an existing file.
 */
export async function setExecutableHookEnabled(path: string, enabled: boolean): Promise<string> {
  const isDisabled = path.endsWith(DISABLE_SUFFIX);
  if (enabled === !isDisabled) return path;
  const target = enabled ? path.slice(0, -DISABLE_SUFFIX.length) : `${path}${DISABLE_SUFFIX}`;
  const exists = await stat(target).then(
    () => true,
    () => false,
  );
  if (exists) throw new Error(`cannot rename ${path}: ${target} already exists`);
  await rename(path, target);
  return target;
}

/**
 * Discovery of executable hooks (docs/hooks.md): executables in, by precedence, `<ws>/.workbench/hooks/`,
 * `<ws>/.kodelet/hooks/`, `<ws>/.kodelet/plugins/<org@repo>/hooks/`, `$WORKBENCH_HOME/hooks/`,
 * `~/.kodelet/hooks/` and `~/.kodelet/plugins/<org@repo>/hooks/` (Kodelet's own folders, so a Kodelet
 * user's hooks and plugins work unchanged; a plugin's hooks are named `org/repo/<name>` as in Kodelet);
 * `<hook> hook` names the event, cached per file identity.
 * An untrusted workspace's executables are never run, not even to ask their type.
 */
import { constants, accessSync, statSync, type Stats } from 'node:fs';
import { readdir, rename, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { buildHookEnv } from '../env/child-env.ts';
import { entriesIfAny } from '../fs/list-if-any.ts';
import { existsAs } from '../fs/stat-if-any.ts';
import type { WorkbenchSettings } from '../../shared/types/index.ts';
import { hookSandbox, runHookProcess, type HookSandboxContext } from './runner.ts';
import { EXECUTABLE_EVENTS, isExecutableEvent, type ExecutableEvent } from './executable-events.ts';

export const DISABLE_SUFFIX = '.disable';
const TYPE_QUERY_TIMEOUT_MS = 10_000;

export interface ExecutableHookEntry {
  /**
   * `executable:<scope>:<name>` (name without `.disable`); hooks of Kodelet's folders are
   * `executable:<scope>:kodelet/<name>`, of a Kodelet plugin `executable:<scope>:kodelet/org/repo/<name>`.
   */
  id: string;
  name: string;
  path: string;
  scope: 'workspace' | 'user';
  event?: ExecutableEvent;
  /** Its `hook` answer asked to be served by one long-lived process (docs/hooks.md#persistent-hooks). */
  persistent?: boolean;
  /** False when the file name ends with `.disable`. */
  enabled: boolean;
  trusted: boolean;
  /** Set when the hook cannot run: not executable, bad type… */
  problem?: string;
  /** A workspace hook of the same name runs instead. */
  shadowed?: boolean;
}

interface TypeAnswer {
  event?: ExecutableEvent;
  persistent?: boolean;
  problem?: string;
}
interface CacheEntry extends TypeAnswer {
  key: string;
}
// Keyed by device:inode so a `.disable` rename keeps the answer; invalidated by mtime/size/inode change.
const typeCache = new Map<string, CacheEntry>();
const identity = (s: Stats) => `${s.dev}:${s.ino}`;
const version = (s: Stats) => `${s.mtimeMs}:${s.size}:${s.ino}`;

interface HookDir {
  path: string;
  scope: 'workspace' | 'user';
  /** Prefix of the ids of its hooks ('' for the workbench's own folders). */
  idPrefix: string;
  /** Prefix of its hooks' names: `org/repo/` for a Kodelet plugin's folder. */
  namePrefix?: string;
}

/**
 * The `hooks/` folders of the Kodelet plugins installed under `<kodelet>/plugins/<org@repo>/`. Listed
 * in place: every run's start asks, and the folder is usually absent (docs/performance.md).
 */
function kodeletPluginHookDirs(kodeletDir: string, scope: HookDir['scope']): HookDir[] {
  return entriesIfAny(join(kodeletDir, 'plugins'))
    .filter((p) => p.isDirectory() && /^[^@/]+@[^@/]+$/.test(p.name))
    .map((p) => p.name)
    .sort()
    .map((name) => ({ path: join(kodeletDir, 'plugins', name, 'hooks'), scope, idPrefix: 'kodelet/', namePrefix: `${name.replace('@', '/')}/` }));
}

/** The hook folders, highest precedence first. `userHome` is the user's home (`~`), for Kodelet's folders. */
export function executableHookDirs(workspace: string, home: string, userHome: string = homedir()): HookDir[] {
  const workspacePlugins = kodeletPluginHookDirs(join(workspace, '.kodelet'), 'workspace');
  const userPlugins = kodeletPluginHookDirs(join(userHome, '.kodelet'), 'user');
  return [
    { path: join(workspace, '.workbench', 'hooks'), scope: 'workspace', idPrefix: '' },
    { path: join(workspace, '.kodelet', 'hooks'), scope: 'workspace', idPrefix: 'kodelet/' },
    ...workspacePlugins,
    { path: join(home, 'hooks'), scope: 'user', idPrefix: '' },
    { path: join(userHome, '.kodelet', 'hooks'), scope: 'user', idPrefix: 'kodelet/' },
    ...userPlugins,
  ];
}

/**
 * The access(X_OK) answer per file, valid while the file keeps its inode, mode, owner and ctime (a
 * chmod, chown or ACL change moves the ctime): a hook runs on every tool call, the check costs a
 * system call each time.
 */
const executableCache = new Map<string, { key: string; ok: boolean }>();

/**
 * The mtime of `path` when it is (still) an executable regular file, else undefined; used right
 * before every invocation (the mtime tells a persistent hook's server that its file changed).
 * Contract: one stat per call; a renamed, removed or chmod-ed file is seen at once.
 */
export function runnableFileVersion(path: string): number | undefined {
  let st: Stats | undefined;
  try {
    st = statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (!st?.isFile()) return undefined;
  const key = `${st.ino}:${st.mode}:${st.uid}:${st.gid}:${st.ctimeMs}`;
  let known = executableCache.get(path);
  if (known?.key !== key) {
    let ok = true;
    try {
      accessSync(path, constants.X_OK);
    } catch {
      ok = false;
    }
    known = { key, ok };
    executableCache.set(path, known);
  }
  return known.ok ? st.mtimeMs : undefined;
}

/** Whether `path` is (still) an executable regular file. */
export function isRunnableFile(path: string): boolean {
  return runnableFileVersion(path) !== undefined;
}

/** Reads a `hook` answer: the event name, or `{"event": "…", "persistent": true}`. */
export function readTypeAnswer(stdout: string): TypeAnswer {
  const answer = stdout.trim();
  if (isExecutableEvent(answer)) return { event: answer };
  if (answer.startsWith('{')) {
    try {
      const o = JSON.parse(answer) as { event?: unknown; persistent?: unknown };
      if (typeof o.event === 'string' && isExecutableEvent(o.event)) return { event: o.event, ...(o.persistent === true ? { persistent: true } : {}) };
    } catch {
      /* reported below */
    }
  }
  return { problem: `bad hook type "${answer.slice(0, 60)}" (expected one of ${EXECUTABLE_EVENTS.join(', ')})` };
}

/** How `<hook> hook` is asked: in the sandbox when the hook opted in (docs/hooks.md#sandboxing-a-hook). */
interface QueryContext {
  cwd: string;
  sandbox?: HookSandboxContext;
}

async function queryType(path: string, q: QueryContext): Promise<TypeAnswer> {
  const res = await runHookProcess({
    command: path,
    args: ['hook'],
    cwd: q.cwd,
    env: buildHookEnv(q.cwd),
    timeoutMs: TYPE_QUERY_TIMEOUT_MS,
    ...(q.sandbox ? hookSandbox(true, q.sandbox, q.cwd, [path]) : {}),
  });
  if (res.error) return { problem: res.error };
  if (res.timedOut) return { problem: '`hook` query timed out' };
  if (res.exitCode !== 0) return { problem: `\`hook\` query exited with ${res.exitCode ?? res.signal}` };
  return readTypeAnswer(res.stdout);
}

async function scanDir({ path: dir, scope, idPrefix, namePrefix = '' }: HookDir, opts: DiscoverOptions, mayRun: boolean): Promise<ExecutableHookEntry[]> {
  const cwd = opts.workspace;
  if (!existsAs(dir, 'directory')) return [];
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
        const name = namePrefix + (enabled ? file : file.slice(0, -DISABLE_SUFFIX.length));
        const entry: ExecutableHookEntry = { id: `executable:${scope}:${idPrefix}${name}`, name, path, scope, enabled, trusted: scope === 'user' || mayRun };
        if (!isRunnableFile(path)) {
          entry.problem = 'not executable (chmod +x it)';
          return entry;
        }
        const cached = typeCache.get(identity(st));
        if (cached && cached.key === version(st)) {
          if (cached.event) entry.event = cached.event;
          if (cached.persistent) entry.persistent = true;
          if (cached.problem) entry.problem = cached.problem;
          return entry;
        }
        // A disabled or untrusted hook is never executed, not even for its type.
        if (!enabled || !entry.trusted) return entry;
        const boxed = opts.settings?.hook_overrides[entry.id]?.sandbox;
        const answer = await queryType(path, { cwd, ...(boxed ? { sandbox: { settings: opts.settings!.sandbox, workbenchHome: opts.home } } : {}) });
        typeCache.set(identity(st), { key: version(st), ...answer });
        return { ...entry, ...answer };
      }),
  );
  return entries.filter((e): e is ExecutableHookEntry => e !== undefined);
}

export interface DiscoverOptions {
  workspace: string;
  home: string;
  trusted: boolean;
  userHome?: string;
  /** For the hooks' overrides: a hook switched into the sandbox is asked its type there too. */
  settings?: WorkbenchSettings;
}

/**
 * Lists every executable hook file of the folders, by precedence, each folder by name; a hook is
 * shadowed by a runnable hook of the same name in an earlier folder.
 * Contract: runs `<hook> hook` only for enabled hooks of the user folders or of a trusted workspace.
 */
export async function discoverExecutableHooks(opts: DiscoverOptions): Promise<ExecutableHookEntry[]> {
  const dirs = executableHookDirs(opts.workspace, opts.home, opts.userHome);
  const lists = await Promise.all(dirs.map((d) => scanDir(d, opts, d.scope === 'user' || opts.trusted)));
  const active = new Set<string>();
  for (const list of lists) {
    for (const e of list) if (active.has(e.name)) e.shadowed = true;
    for (const e of list) if (e.enabled && e.trusted && !e.shadowed) active.add(e.name);
  }
  return lists.flat();
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

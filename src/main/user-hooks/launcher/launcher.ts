/**
 * The hook launcher (docs/hooks.md#how-a-hook-is-started): one small Node process (`child.mjs`) that
 * starts spawned hooks for this one. It is started in the background at the first hook a process
 * runs, which itself starts here; every hook after it is started by the launcher. A launcher that
 * dies ends the hooks it was running as failed ("the hook launcher ended") and is started again at
 * the next hook; after three deaths hooks start here for good. It has no secret in its environment
 * (each hook's own is sent with it), holds nothing open, and ends with `endHookLauncher()` or when
 * this process goes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { packageRoot } from '../../package-root.ts';
import { safeChildEnv } from '../../env/child-env.ts';
import { signalGroup } from '../../tools/process-group.ts';
import type { LauncherReply, LauncherRequest } from './protocol.ts';
import type { HookProcessEvents, HookStartRequest, StartedHookProcess } from './start.ts';

/** A pipe to a child is a socket, which can stop holding the event loop. */
interface Unrefable {
  unref(): void;
}

interface Call {
  on: HookProcessEvents;
  pid?: number;
}

interface Launcher {
  child: ChildProcess;
  ready: boolean;
  /** Resolves true once it reads requests, false if it ended before. */
  up: Promise<boolean>;
  settleUp(up: boolean): void;
  calls: Map<number, Call>;
  /** Ended on purpose: its exit is not a failure. */
  ending: boolean;
  gone: boolean;
}

/** How long the launcher gets to end its hooks and exit before it is killed. */
const END_WAIT_MS = 1000;
/** Deaths after which hooks are started here for the rest of this process. */
const MAX_FAILURES = 3;

let launcher: Launcher | undefined;
let failures = 0;
let nextId = 1;

/** The launcher's program; absent from a build without the sources (then hooks start here). */
const program = () => join(packageRoot(), 'src', 'main', 'user-hooks', 'launcher', 'child.mjs');

/**
 * Starts the process through the launcher when it is up; undefined when it is not (it is then
 * started for the next hook, and this one starts in the caller's process).
 */
export function relayedStart(
  req: HookStartRequest,
  on: HookProcessEvents,
): StartedHookProcess | undefined {
  if (!launcher) {
    void startHookLauncher();
    return undefined;
  }
  if (!launcher.ready) return undefined;
  const l = launcher;
  const id = nextId++;
  const call: Call = { on };
  l.calls.set(id, call);
  send(l, {
    op: 'run',
    id,
    command: req.command,
    args: req.args,
    cwd: req.cwd,
    env: req.env as Record<string, string>,
    stdin: req.stdin,
    caps: req.caps,
  });
  return {
    get pid() {
      return call.pid;
    },
    release() {
      if (l.calls.delete(id)) send(l, { op: 'drop', id });
    },
  };
}

function send(l: Launcher, req: LauncherRequest): void {
  l.child.stdin!.write(`${JSON.stringify(req)}\n`);
}

/**
 * Starts the launcher unless it runs (a run with spawned hooks calls it ahead of its first hook).
 * Resolves whether it is up; false when it cannot be (then every hook starts here).
 */
export function startHookLauncher(): Promise<boolean> {
  if (launcher) return launcher.up;
  if (failures >= MAX_FAILURES) return Promise.resolve(false);
  const file = program();
  if (!existsSync(file)) {
    failures = MAX_FAILURES;
    return Promise.resolve(false);
  }
  const electron = Boolean(process.versions.electron);
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [file], {
      env: { ...safeChildEnv(), ...(electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}) },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
  } catch {
    failures++;
    return Promise.resolve(false);
  }
  let settleUp!: (up: boolean) => void;
  const up = new Promise<boolean>((resolve) => (settleUp = resolve));
  const l: Launcher = {
    child,
    ready: false,
    up,
    settleUp,
    calls: new Map(),
    ending: false,
    gone: false,
  };
  launcher = l;
  // Once up, neither the launcher nor its pipes keep this process alive (a hook in flight has its
  // own timers); until then its stdout does, so a caller awaiting `up` is not left behind.
  child.unref();
  (child.stdin as unknown as Unrefable).unref();
  child.stdin!.on('error', () => {});
  child.on('error', () => ended(l, 'could not start'));
  child.on('exit', (code, signal) => ended(l, `exit ${signal ?? code}`));
  createInterface({ input: child.stdout! }).on('line', (line) => onReply(l, line));
  return up;
}

function onReply(l: Launcher, line: string): void {
  let r: LauncherReply;
  try {
    r = JSON.parse(line) as LauncherReply;
  } catch {
    return;
  }
  if (r.ev === 'ready') {
    l.ready = true;
    (l.child.stdout as unknown as Unrefable).unref();
    return l.settleUp(true);
  }
  const call = l.calls.get(r.id);
  if (!call) return;
  switch (r.ev) {
    case 'spawn':
      call.pid = r.pid;
      return;
    case 'error':
      return call.on.error({ code: r.code, message: r.message });
    case 'out':
      return call.on.output(r.fd, Buffer.from(r.data, 'base64'));
    case 'exit':
      return call.on.exit(r.code, r.signal);
    case 'close':
      l.calls.delete(r.id);
      call.on.dropped(r.dropped);
      return call.on.close();
  }
}

/** The launcher is gone: its hooks end as failed (their groups killed), the next hook starts another. */
function ended(l: Launcher, how: string): void {
  if (l.gone) return;
  l.gone = true;
  l.settleUp(false);
  if (launcher === l) launcher = undefined;
  if (!l.ending) failures++;
  const calls = [...l.calls.values()];
  l.calls.clear();
  for (const call of calls) {
    if (call.pid !== undefined) signalGroup(call.pid, 'SIGKILL');
    call.on.error({ message: `the hook launcher ended (${how}) while the hook ran` });
    call.on.close();
  }
}

/** Ends the launcher and any hook it still runs (the workbench's close). Contract: never throws. */
export async function endHookLauncher(): Promise<void> {
  const l = launcher;
  if (!l) return;
  launcher = undefined;
  l.ending = true;
  if (l.gone) return;
  const exited = new Promise<void>((resolve) => l.child.once('exit', () => resolve()));
  l.child.stdin!.end();
  const late = setTimeout(() => l.child.kill('SIGKILL'), END_WAIT_MS);
  await exited;
  clearTimeout(late);
}

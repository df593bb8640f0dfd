/**
 * Long-lived executable hooks (docs/hooks.md#persistent-hooks): a hook that declared itself persistent
 * is started once as `<hook> serve` and answers every call as one JSON line on stdout
 * (`{"id":1,"event":"…","payload":{…}}` in, `{"id":1,"result":{…}}` out). A server that dies is
 * started again on the next call (and so is one whose file changed); one that misses a call's deadline is killed (its process group,
 * SIGTERM then SIGKILL) and its calls fail as timed out. Servers live until `endHookServers()` (the
 * workbench's close) or the exit of this process, and carry a process marker like every hook run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { HOOK_KILL_GRACE_MS } from '../../shared/constants.ts';
import { redactSecrets } from '../secrets/redaction.ts';
import { newProcessMarker, withMarker } from '../tools/process-tracking.ts';
import { signalGroup } from '../tools/process-group.ts';
import { wrapHookProcess } from '../tools/sandbox/index.ts';
import { runnableFileVersion } from './executable-discovery.ts';
import { spinWhile } from './spin-wait.ts';
import {
  STDERR_CAP_BYTES,
  STDOUT_CAP_BYTES,
  hookProcessResult,
  markHookRunEnded,
  type HookProcessResult,
  type HookProcessSpec,
} from './runner.ts';

interface Pending {
  resolve(r: HookProcessResult): void;
  started: number;
  timer: NodeJS.Timeout;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface HookServer {
  /** The hook's file (what `endHookServersOf` picks servers by). */
  hookFile: string;
  child: ChildProcess;
  /** The hook file's mtime when started: an edited hook gets a new server. */
  version: number;
  marker: string;
  pending: Map<number, Pending>;
  /** Stderr written since the last answer, given to the next call's result (capped). */
  stderr: string;
  /** Why the server before this one ended unseen, told with the first call this one ends. */
  notice: string;
  /** Bytes written since the last answer: stdout lines that answered no call, and stderr. */
  stray: number;
  stderrBytes: number;
  cleanup?: () => Promise<void>;
  ended: boolean;
}

/**
 * Output a server may write between two answers before it is ended as flooding: a server that keeps
 * printing would otherwise hold this process's main thread reading it for as long as it lives.
 */
const FLOOD_BYTES = STDOUT_CAP_BYTES;

const servers = new Map<string, HookServer>();
/**
 * Why a server ended between calls (it exited or flooded while no call was open): told in the stderr
 * of the next call its successor answers, so the hooks panel shows it instead of a silent restart.
 */
const endedUnseen = new Map<string, string>();
/** Every server process not yet exited, including ended ones still in their SIGTERM grace. */
const alive = new Set<ChildProcess>();
let nextId = 1;

const result = (started: number, fields: Partial<HookProcessResult>): HookProcessResult =>
  hookProcessResult(started, { exitCode: 0, ...fields });

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid !== undefined) signalGroup(child.pid, signal);
}

/**
 * Ends a server: every open call fails with `why` (or times out), the group is killed. `expected`: an
 * end nobody needs to hear about (the workbench closing, the hook file edited).
 */
function endServer(
  key: string,
  server: HookServer,
  why: Partial<HookProcessResult>,
  expected = false,
): void {
  if (servers.get(key) === server) servers.delete(key);
  if (!server.ended) {
    server.ended = true;
    if (!expected && server.pending.size === 0 && why.error) endedUnseen.set(key, why.error);
    markHookRunEnded(server.marker);
    killGroup(server.child, 'SIGTERM');
    setTimeout(() => killGroup(server.child, 'SIGKILL'), HOOK_KILL_GRACE_MS).unref();
    // Nothing it writes from now on is read (a flood would go on through the grace period).
    server.child.stdout?.destroy();
    server.child.stderr?.destroy();
    void server.cleanup?.();
  }
  const stderr = server.pending.size > 0 ? takeStderr(server) : '';
  for (const [id, p] of server.pending) {
    server.pending.delete(id);
    settle(p, result(p.started, { exitCode: null, stderr, ...why }));
  }
}

/** What a call's result tells as its stderr: the notice, if any, and what the server wrote. */
function takeStderr(server: HookServer): string {
  const text = redactSecrets(server.notice + server.stderr);
  server.notice = '';
  server.stderr = '';
  return text;
}

function settle(p: Pending, r: HookProcessResult): void {
  clearTimeout(p.timer);
  if (p.onAbort) p.signal?.removeEventListener('abort', p.onAbort);
  p.resolve(r);
}

/** Reads one answer line. Contract: false for a line that answers no open call (it is ignored). */
function onLine(server: HookServer, line: string): boolean {
  let answer: unknown;
  try {
    answer = JSON.parse(line);
  } catch {
    return false;
  }
  if (!answer || typeof answer !== 'object') return false;
  const {
    id,
    result: value,
    error,
  } = answer as { id?: unknown; result?: unknown; error?: unknown };
  const p = typeof id === 'number' ? server.pending.get(id) : undefined;
  if (!p || typeof id !== 'number') return false;
  server.pending.delete(id);
  server.stray = 0;
  server.stderrBytes = 0;
  if (typeof error === 'string') {
    // The error is the call's stderr (its first line is what the user sees).
    server.stderr = '';
    settle(p, result(p.started, { exitCode: 1, stderr: error.slice(0, STDERR_CAP_BYTES) }));
    return true;
  }
  const stderr = takeStderr(server);
  // `null` or no result is "no action", like an empty stdout of `<hook> run`.
  const stdout = value === undefined || value === null ? '' : redactSecrets(JSON.stringify(value));
  const bytes = Buffer.byteLength(stdout);
  const truncated = bytes > STDOUT_CAP_BYTES;
  settle(
    p,
    result(p.started, {
      stdout: truncated ? '' : stdout,
      stdoutBytes: bytes,
      stdoutTruncated: truncated,
      stderr,
    }),
  );
  return true;
}

async function startServer(
  key: string,
  spec: HookProcessSpec,
  version: number,
): Promise<HookServer | { error: string }> {
  const marker = newProcessMarker();
  let command = spec.command;
  let args = [...(spec.args ?? []), 'serve'];
  let env = withMarker(spec.env, marker);
  let cleanup: (() => Promise<void>) | undefined;
  if (spec.sandbox) {
    const wrapped = await wrapHookProcess(spec.sandbox, { ...spec, args }).catch((e: Error) => ({
      refused: e.message,
    }));
    if ('refused' in wrapped) return { error: `not run: ${wrapped.refused}` };
    env = { ...env, ...wrapped.env };
    cleanup = wrapped.cleanup;
    args = ['-c', wrapped.command];
    command = '/bin/sh';
  }
  let child: ChildProcess;
  try {
    child = spawn(command, args, {
      cwd: spec.cwd,
      env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch (e) {
    return { error: `cannot run ${spec.command}: ${(e as Error).message}` };
  }
  const server: HookServer = {
    hookFile: spec.command,
    child,
    version,
    marker,
    pending: new Map(),
    stderr: '',
    notice: endedUnseen.has(key) ? `[the hook's previous server: ${endedUnseen.get(key)}]\n` : '',
    stray: 0,
    stderrBytes: 0,
    cleanup,
    ended: false,
  };
  const started = await new Promise<string | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', (e: NodeJS.ErrnoException) =>
      resolve(`cannot run ${spec.command}: ${e.code ?? e.message}`),
    );
  });
  if (started) {
    void cleanup?.();
    return { error: started };
  }
  endedUnseen.delete(key);
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (!onLine(server, line.trim())) server.stray += Buffer.byteLength(line) + 1;
    }
    // A line longer than the output cap is an answer too large: the server is ended.
    if (buffered.length > STDOUT_CAP_BYTES)
      endServer(key, server, {
        exitCode: null,
        stdoutTruncated: true,
        stdoutBytes: buffered.length,
      });
    else if (server.stray > FLOOD_BYTES)
      endServer(key, server, {
        exitCode: null,
        error: `hook server ended: it wrote over ${FLOOD_BYTES / 1024 / 1024} MB to stdout that answered no call`,
      });
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    if (server.stderr.length < STDERR_CAP_BYTES)
      server.stderr += chunk.slice(0, STDERR_CAP_BYTES - server.stderr.length);
    server.stderrBytes += Buffer.byteLength(chunk);
    if (server.stderrBytes > FLOOD_BYTES)
      endServer(key, server, {
        exitCode: null,
        error: `hook server ended: it wrote over ${FLOOD_BYTES / 1024 / 1024} MB to stderr since its last answer`,
      });
  });
  child.stdin!.on('error', () => {});
  alive.add(child);
  child.on('exit', (code, signal) => {
    alive.delete(child);
    const first = server.stderr.trim().split('\n')[0]?.slice(0, 300);
    endServer(key, server, {
      exitCode: code ?? null,
      signal,
      error: `hook server exited (${code ?? signal})${first ? `: ${first}` : ''}`,
    });
  });
  return server;
}

const starting = new Map<string, Promise<HookServer | { error: string }>>();

/**
 * Runs one call of a persistent hook on its server (started on first use, again after it died),
 * resolving to the same result shape as a spawned `<hook> run`.
 * Contract: never rejects; a call that misses `spec.timeoutMs` kills the server and resolves timed
 * out; the run's abort kills the server and resolves `cancelled`. `makeEnv`, when given, builds the
 * server's environment only when one starts (instead of `spec.env`, which each call would pay for).
 * `fileVersion` is `runnableFileVersion` of the hook file when the caller has just read it (else it
 * is read here; the sweep compares against the same).
 */
export async function callHookServer(
  spec: HookProcessSpec,
  event: string,
  makeEnv?: () => NodeJS.ProcessEnv,
  fileVersion?: number,
): Promise<HookProcessResult> {
  const started = performance.now();
  if (spec.signal?.aborted) return result(started, { exitCode: null, error: 'cancelled' });
  const key = JSON.stringify([spec.command, spec.cwd, Boolean(spec.sandbox)]);
  const version = fileVersion ?? runnableFileVersion(spec.command) ?? 0;
  let server = servers.get(key);
  if (server && server.version !== version) {
    endServer(key, server, { exitCode: null, error: 'hook file changed' }, true);
    server = undefined;
  }
  if (!server) {
    let pending = starting.get(key);
    if (!pending) {
      pending = startServer(key, makeEnv ? { ...spec, env: makeEnv() } : spec, version);
      starting.set(key, pending);
      void pending.finally(() => starting.delete(key));
    }
    const s = await pending;
    if ('error' in s) return result(started, { exitCode: null, error: s.error });
    if (!s.ended && !servers.has(key)) {
      servers.set(key, s);
      sweeper ??= setInterval(sweepHookServers, SWEEP_MS).unref();
    }
    server = s;
  }
  if (server.ended) return result(started, { exitCode: null, error: 'hook server exited' });
  const live = server;
  const id = nextId++;
  return new Promise((resolve) => {
    const p: Pending = {
      resolve,
      started,
      signal: spec.signal,
      timer: setTimeout(
        () => endServer(key, live, { timedOut: true, exitCode: null }),
        spec.timeoutMs,
      ),
    };
    if (spec.signal) {
      p.onAbort = () => endServer(key, live, { exitCode: null, error: 'cancelled' });
      spec.signal.addEventListener('abort', p.onAbort, { once: true });
    }
    live.pending.set(id, p);
    const payload = spec.stdin ?? '{}';
    live.child.stdin!.write(`{"id":${id},"event":${JSON.stringify(event)},"payload":${payload}}\n`);
    spinWhile(() => live.pending.has(id));
  });
}

/** Ends every hook server (the workbench's close). Contract: never throws; waits for their exit. */
export async function endHookServers(): Promise<void> {
  const all = [...servers.entries()];
  await Promise.all(
    all.map(([key, server]) => {
      const exited = new Promise<void>((resolve) => {
        if (server.child.exitCode !== null || server.child.signalCode !== null) resolve();
        else server.child.once('exit', () => resolve());
      });
      server.child.stdin?.end();
      endServer(key, server, { exitCode: null, error: 'workbench closed' }, true);
      return exited;
    }),
  );
}

/**
 * Ends the servers of the hooks whose file `which` picks (a hook switched off, a workspace no longer
 * trusted) now rather than when the workbench closes: a hook the user turned off does not keep a
 * process running. Contract: never throws; a later call of such a hook starts a server again.
 */
export function endHookServersOf(which: (hookFile: string) => boolean): void {
  for (const [key, server] of [...servers]) {
    if (which(server.hookFile))
      endServer(key, server, { exitCode: null, error: 'hook switched off' }, true);
  }
}

/** How often idle servers are held against their hook's file. */
const SWEEP_MS = 30_000;
let sweeper: NodeJS.Timeout | undefined;

/**
 * Ends each idle server whose hook file is gone, no longer executable or changed since it started
 * (renamed to `.disable` or edited in a shell): no call would come to notice it, so it would run
 * until the workbench closes. Runs every 30 s while servers run. Contract: never throws.
 */
export function sweepHookServers(): void {
  for (const [key, server] of [...servers]) {
    if (server.pending.size === 0 && runnableFileVersion(server.hookFile) !== server.version)
      endServer(key, server, { exitCode: null, error: 'hook file changed' }, true);
  }
  if (servers.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

/** Pids of the running hook servers (for `workbench hooks list` and tests). */
export function hookServerPids(): number[] {
  return [...servers.values()].flatMap((s) => (s.child.pid === undefined ? [] : [s.child.pid]));
}

// A server must not outlive this process even when the workbench was never closed.
process.once('exit', () => {
  for (const child of alive) killGroup(child, 'SIGKILL');
});

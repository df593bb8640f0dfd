/**
 * Runs one hook executable as a child process with every guard a misbehaving hook needs: own process
 * group, parent-side deadline (SIGTERM to the group, SIGKILL after a grace), capped-but-drained
 * output, a drain window after exit (a grandchild holding the pipe does not hold us), EPIPE-safe stdin.
 * What a hook leaves running outside its group (`setsid`, `nohup … & disown`) is tracked by a marker
 * in its environment and ends at the latest with `endHookLeftovers()` (the workbench's close).
 * A hook that opted in runs inside the command sandbox (docs/hooks.md#sandboxing-a-hook), or not at all.
 */
import { HOOK_KILL_GRACE_MS } from '../../shared/constants.ts';
import type { SandboxSettings } from '../../shared/types/index.ts';
import { redactSecrets } from '../secrets/redaction.ts';
import { killMarked, newProcessMarker, withMarker } from '../tools/process-tracking.ts';
import { signalGroup } from '../tools/process-group.ts';
import { wrapHookProcess, type HookSandboxOptions } from '../tools/sandbox/index.ts';
import { startHookProcess, type StartedHookProcess } from './launcher/start.ts';

/**
 * Markers of hook runs that have ended; their leftovers may still run. Process-wide because a hook's
 * leftovers belong to no run: whoever closes a workbench ends them all.
 */
const endedRuns = new Set<string>();

/**
 * Kills every process left behind by a hook run that has ended (hooks still running are untouched).
 * Contract: never throws; Linux only (elsewhere the group kill at the hook's end is all there is).
 */
export async function endHookLeftovers(): Promise<number> {
  const markers = [...endedRuns];
  endedRuns.clear();
  return killMarked(...markers);
}

/** Records that the run of `marker` ended, so `endHookLeftovers()` ends what it left behind. */
export function markHookRunEnded(marker: string): void {
  endedRuns.add(marker);
}

/** Captured stdout bytes; beyond this the output is drained and discarded. */
export const STDOUT_CAP_BYTES = 1024 * 1024;
/** Captured stderr bytes. */
export const STDERR_CAP_BYTES = 256 * 1024;
/** How long we keep reading after the hook exited before giving up on a pipe a grandchild holds. */
const DRAIN_AFTER_EXIT_MS = 150;
/** After SIGKILL, how long we wait for the exit event before resolving anyway (reaping may lag). */
const REAP_SLACK_MS = 500;

export interface HookProcessSpec {
  /** Executable path, or with `shell` the command string given to /bin/sh -c. */
  command: string;
  args?: string[];
  shell?: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed. */
  stdin?: string;
  timeoutMs: number;
  graceMs?: number;
  /** The run's cancel: kills the hook's group at once. */
  signal?: AbortSignal;
  /** Run inside the command sandbox; set only for a hook that opted in. */
  sandbox?: HookSandboxOptions;
}

export interface HookProcessResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  stdoutBytes: number;
  stderrBytes: number;
  durationMs: number;
  /** Could not start (ENOENT, EACCES…) or similar runner-level failure. */
  error?: string;
  /** How the trace names that failure (default `spawn_error`; an http hook's `http_error`). */
  errorType?: string;
}

/** A result with nothing captured yet, `fields` set, timed from `started` (`performance.now()`). */
export const hookProcessResult = (started: number, fields: Partial<HookProcessResult>): HookProcessResult => ({
  exitCode: null,
  signal: null,
  timedOut: false,
  stdout: '',
  stderr: '',
  stdoutTruncated: false,
  stderrTruncated: false,
  stdoutBytes: 0,
  stderrBytes: 0,
  durationMs: Math.round(performance.now() - started),
  ...fields,
});

/** Where a sandboxed hook runs: the sandbox settings (for `network`) and $WORKBENCH_HOME (hidden). */
export interface HookSandboxContext {
  settings: SandboxSettings;
  workbenchHome: string;
}

/** The `sandbox` part of a hook's spec: present only when the hook opted in. */
export function hookSandbox(
  optedIn: boolean | undefined,
  ctx: HookSandboxContext,
  workspace: string,
  scripts: string[],
): Pick<HookProcessSpec, 'sandbox'> {
  return optedIn ? { sandbox: { ...ctx, workspace, scripts } } : {};
}

class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private counted = 0;
  /** Bytes the launcher did not relay (beyond the cap), as it last told. */
  dropped = 0;
  private readonly cap: number;
  constructor(cap: number) {
    this.cap = cap;
  }
  get total(): number {
    return this.counted + this.dropped;
  }
  push(chunk: Buffer): void {
    this.counted += chunk.length;
    if (this.kept >= this.cap) return; // keep draining, keep nothing
    const room = this.cap - this.kept;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(part);
    this.kept += part.length;
  }
  get truncated(): boolean {
    return this.total > this.kept;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** Signals the hook's process group (its pid is the group's id). */
function killGroup(child: StartedHookProcess | undefined, signal: NodeJS.Signals): void {
  if (child?.pid !== undefined) signalGroup(child.pid, signal);
}

function describeSpawnError(err: { code?: string; message: string }, command: string): string {
  if (err.code === 'ENOENT') return `cannot run ${command}: ENOENT (the file or its interpreter was not found)`;
  if (err.code === 'EACCES') return `cannot run ${command}: EACCES (not executable)`;
  return `cannot run ${command}: ${err.code ?? ''} ${err.message}`.trim();
}

/**
 * Runs the process to its end or its deadline, inside the sandbox when `spec.sandbox` is set.
 * Contract: never rejects; resolves at the latest at timeoutMs + graceMs + a small reaping slack
 * (plus the sandbox's setup); a sandboxed hook on a machine without a sandbox does not start and
 * its result carries the reason in `error`.
 */
export async function runHookProcess(spec: HookProcessSpec): Promise<HookProcessResult> {
  if (!spec.sandbox) return runProcess(spec);
  const { sandbox, ...plain } = spec;
  const wrapped = await wrapHookProcess(sandbox, spec).catch((e: Error) => ({ refused: e.message }));
  if ('refused' in wrapped) return notStarted(`not run: ${wrapped.refused}`);
  try {
    const env = { ...spec.env, ...wrapped.env };
    return await runProcess({ ...plain, command: wrapped.command, args: undefined, shell: true, env });
  } finally {
    await wrapped.cleanup();
  }
}

/** The result of a hook that never started. */
function notStarted(error: string): HookProcessResult {
  const none = { stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false };
  return { exitCode: null, signal: null, timedOut: false, ...none, stdoutBytes: 0, stderrBytes: 0, durationMs: 0, error };
}

function runProcess(spec: HookProcessSpec): Promise<HookProcessResult> {
  const started = performance.now();
  const grace = spec.graceMs ?? HOOK_KILL_GRACE_MS;
  const out = new CappedBuffer(STDOUT_CAP_BYTES);
  const err = new CappedBuffer(STDERR_CAP_BYTES);
  const marker = newProcessMarker();
  const env = withMarker(spec.env, marker);
  return new Promise((resolve) => {
    let child: StartedHookProcess | undefined;
    let settled = false;
    let timedOut = false;
    let exited = false;
    let closed = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let spawnError: string | undefined;
    const timers: NodeJS.Timeout[] = [];

    const onAbort = () => {
      spawnError ??= 'cancelled';
      killGroup(child, 'SIGKILL');
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      endedRuns.add(marker);
      spec.signal?.removeEventListener('abort', onAbort);
      for (const t of timers) clearTimeout(t);
      // Whatever is still in the group (a grandchild holding the pipe) goes with the hook.
      if (!exited || !closed) killGroup(child, 'SIGKILL');
      child?.release();
      resolve({
        exitCode,
        signal: exitSignal,
        timedOut,
        // The output is stored (hook_runs) and read into the run: never with the API key in it.
        stdout: redactSecrets(out.text()),
        stderr: redactSecrets(err.text()),
        stdoutTruncated: out.truncated,
        stderrTruncated: err.truncated,
        stdoutBytes: out.total,
        stderrBytes: err.total,
        durationMs: Math.round(performance.now() - started),
        ...(spawnError ? { error: spawnError } : {}),
      });
    };

    if (spec.signal?.aborted) {
      spawnError = 'cancelled';
      finish();
      return;
    }
    const [command, args] = spec.shell ? ['/bin/sh', ['-c', spec.command]] : [spec.command, spec.args ?? []];
    try {
      child = startHookProcess(
        { command, args, cwd: spec.cwd, env, stdin: spec.stdin ?? '', caps: [STDOUT_CAP_BYTES, STDERR_CAP_BYTES] },
        {
          error(e) {
            spawnError ??= describeSpawnError(e, spec.command);
            // A spawn failure never produces an exit; settle now.
            if (child?.pid === undefined) finish();
          },
          output: (fd, chunk) => (fd === 1 ? out : err).push(chunk),
          dropped([o, e]) {
            out.dropped = o;
            err.dropped = e;
          },
          exit(code, signal) {
            exited = true;
            exitCode = code;
            exitSignal = signal;
            if (!closed) timers.push(setTimeout(finish, DRAIN_AFTER_EXIT_MS));
          },
          close() {
            closed = true;
            finish();
          },
        },
      );
    } catch (e) {
      spawnError = describeSpawnError(e as NodeJS.ErrnoException, spec.command);
      finish();
      return;
    }
    spec.signal?.addEventListener('abort', onAbort, { once: true });

    timers.push(
      setTimeout(() => {
        timedOut = true;
        killGroup(child, 'SIGTERM');
        timers.push(setTimeout(() => killGroup(child, 'SIGKILL'), grace));
        // Parent-side hard stop: resolve even if the kernel is slow to reap (stopped process, zombie).
        timers.push(setTimeout(finish, grace + REAP_SLACK_MS));
      }, spec.timeoutMs),
    );
  });
}

/**
 * Runs a shell command in its own process group with a deadline, abort, head+tail output capture and
 * a kill of the whole group (SIGTERM, SIGKILL after a grace). Returns shortly after the direct child
 * exits even if a background grandchild still holds the pipe, and leaves no survivor in the group nor,
 * on Linux, among the processes that left it (process-tracking.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { HeadTailBuffer } from './output-buffer.ts';
import { killMarked, newProcessMarker, withMarker } from './process-tracking.ts';

/** Output kept from each end: 2 × 38 KB stays under MAX_RESULT_CHARS, so the hook never cuts it again. */
const DEFAULT_KEEP_BYTES = 38 * 1024;

/** What to run and the limits that apply. */
export interface GroupRunOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL (default 2000 ms). */
  killGraceMs?: number;
  /** How long to keep reading after the child exited (default 200 ms). */
  drainMs?: number;
  headBytes?: number;
  tailBytes?: number;
  /** Receives every chunk as it arrives, stdout and stderr apart (live output; docs/tools.md). */
  onData?: (stream: OutputStream, chunk: Buffer) => void;
}

/** Which pipe a chunk of output came from. */
export type OutputStream = 'stdout' | 'stderr';

/** How a command ended and what it printed. */
export interface GroupRunResult {
  /** Both streams interleaved as they arrived (what the model sees). */
  output: string;
  /** Each stream on its own, with the same head + tail bound. */
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  droppedBytes: number;
  /** True when processes left behind after the child exited (in the group or not) had to be killed. */
  killedSurvivors: boolean;
  pid: number;
}

/** The shell used for commands: bash when installed, else POSIX sh. */
export function defaultShell(): string {
  return existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
}

/** True while any process is in group `pgid`. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Signals every process in group `pgid`; a group already gone is nothing to signal. */
export function signalGroup(pgid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pgid, sig);
  } catch {
    // the group is already gone
  }
}

/** Contract: never rejects for the command's own failure (only when the shell cannot be spawned). */
export function runInProcessGroup(opts: GroupRunOptions): Promise<GroupRunResult> {
  const grace = opts.killGraceMs ?? 2000;
  const drain = opts.drainMs ?? 200;
  const keep = (): HeadTailBuffer =>
    new HeadTailBuffer(opts.headBytes ?? DEFAULT_KEEP_BYTES, opts.tailBytes ?? DEFAULT_KEEP_BYTES);
  const buffer = keep();
  const apart = { stdout: keep(), stderr: keep() };
  const marker = newProcessMarker();
  return new Promise<GroupRunResult>((resolve, reject) => {
    const child = spawn(defaultShell(), ['-c', opts.command], {
      cwd: opts.cwd,
      env: withMarker(opts.env, marker),
      detached: true, // own process group, so the whole tree can be signalled at once
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let cancelled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const terminate = (): void => {
      if (child.pid === undefined || killTimer) return;
      signalGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), grace);
    };
    const deadline = setTimeout(() => {
      timedOut = true;
      terminate();
    }, opts.timeoutMs);
    const onAbort = (): void => {
      cancelled = true;
      terminate();
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });

    const onChunk = (stream: OutputStream) => (d: Buffer) => {
      buffer.write(d);
      apart[stream].write(d);
      opts.onData?.(stream, d);
    };
    child.stdout.on('data', onChunk('stdout'));
    child.stderr.on('data', onChunk('stderr'));
    let streamsClosed = false;
    child.once('close', () => (streamsClosed = true));
    child.once('error', (err) => {
      clearTimeout(deadline);
      opts.signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.once('exit', (code, sig) => {
      clearTimeout(deadline);
      opts.signal?.removeEventListener('abort', onAbort);
      void (async () => {
        // Let the last output arrive, but do not wait for EOF: a grandchild may hold the pipe forever.
        const until = Date.now() + drain;
        while (!streamsClosed && Date.now() < until) await delay(20);
        const pgid = child.pid!;
        let killedSurvivors = false;
        if (groupAlive(pgid)) {
          killedSurvivors = true;
          terminate();
          // Killed members may linger as zombies until init reaps them; bounded so we never hang.
          const giveUp = Date.now() + grace + 5000;
          while (groupAlive(pgid) && Date.now() < giveUp) await delay(25);
        }
        // Whatever left the group (setsid, nohup … & disown, a double fork) ends with the call too.
        if ((await killMarked(marker)) > 0) killedSurvivors = true;
        if (killTimer) clearTimeout(killTimer);
        child.stdout.destroy();
        child.stderr.destroy();
        resolve({
          output: buffer.text(),
          stdout: apart.stdout.text(),
          stderr: apart.stderr.text(),
          exitCode: code,
          signal: sig,
          timedOut,
          cancelled,
          droppedBytes: buffer.droppedBytes,
          killedSurvivors,
          pid: pgid,
        });
      })();
    });
  });
}

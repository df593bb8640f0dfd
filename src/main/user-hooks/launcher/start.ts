/**
 * Starts one hook process (docs/hooks.md#how-a-hook-is-started): through the hook launcher once it
 * is up, else with a spawn of our own. Starting from the launcher, a small process, spares the
 * workbench the fork of its own large one, which blocks its main thread for milliseconds and makes
 * every page it writes afterwards fault once. Either way the caller sees the same events.
 */
import { spawn } from 'node:child_process';
import { relayedStart } from './launcher.ts';

export interface HookStartRequest {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed. */
  stdin: string;
  /** Bytes of stdout and stderr the caller keeps (the launcher relays no more). */
  caps: [number, number];
}

/** What a started hook process does, in order: output, its exit, its pipes closing. */
export interface HookProcessEvents {
  /** It could not start, or its launcher ended under it. */
  error(err: { code?: string; message: string }): void;
  output(fd: 1 | 2, chunk: Buffer): void;
  /** Bytes beyond the caps so far, per stream (only a launched hook tells them). */
  dropped(bytes: [number, number]): void;
  exit(code: number | null, signal: NodeJS.Signals | null): void;
  close(): void;
}

export interface StartedHookProcess {
  /** Its pid, which is also its process group's id; undefined when it did not start. */
  readonly pid: number | undefined;
  /** Stops reading its output: the caller is done with it. */
  release(): void;
}

/** Starts the process in its own group. Contract: throws only what `spawn` throws synchronously. */
export function startHookProcess(req: HookStartRequest, on: HookProcessEvents): StartedHookProcess {
  return relayedStart(req, on) ?? spawnHere(req, on);
}

function spawnHere(req: HookStartRequest, on: HookProcessEvents): StartedHookProcess {
  const child = spawn(req.command, req.args, {
    cwd: req.cwd,
    env: req.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.on('error', (e: NodeJS.ErrnoException) => on.error({ code: e.code, message: e.message }));
  child.stdout.on('data', (c: Buffer) => on.output(1, c));
  child.stderr.on('data', (c: Buffer) => on.output(2, c));
  // A hook that never reads its stdin is fine: EPIPE/ECONNRESET on write are expected.
  child.stdin.on('error', () => {});
  child.stdin.end(req.stdin);
  child.on('exit', (code, signal) => {
    child.stdin.destroy();
    on.exit(code, signal);
  });
  child.on('close', () => on.close());
  return {
    get pid() {
      return child.pid;
    },
    release() {
      child.stdout.destroy();
      child.stderr.destroy();
      child.stdin.destroy();
    },
  };
}

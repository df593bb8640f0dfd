/**
 * Runs one Create or Next call in a child process on the workbench's own Node (docs/agents.md#script-hooks-create--next):
 * its own process group, the call written to stdin, notes read line by line as they come, a deadline
 * and the run's cancel that kill the whole group, and the group killed as soon as the result is in
 * (a timer the script left behind does not keep anything alive). What it started outside its group
 * (`setsid`) carries a marker in its environment and is killed with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { packageRoot } from '../../package-root.ts';
import { redactSecrets } from '../../secrets/redaction.ts';
import { killMarked, newProcessMarker, withMarker } from '../../tools/process-tracking.ts';
import { parseNote, type ScriptCall, type ScriptNote } from './protocol.ts';

/** Default deadline of one call. */
export const SCRIPT_DEADLINE_MS = 10_000;
/** Beyond this much stdout the script is stopped: a result that large is a bug. */
const STDOUT_CAP_BYTES = 4 * 1024 * 1024;
const STDERR_CAP_BYTES = 64 * 1024;
/** How long an answered child may take to exit before its group is killed. */
const EXIT_WAIT_MS = 150;

export interface ScriptRunSpec {
  call: ScriptCall;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** The run's cancel. */
  signal?: AbortSignal;
  /** Every note but the result, as it arrives. */
  onNote(note: ScriptNote): void;
}

export interface ScriptRunResult {
  /** The returned value (null for `null`/`undefined`), when the call answered. */
  value?: unknown;
  /** The script does not export this function. */
  absent?: boolean;
  /** Why there is no value: the script threw, timed out, crashed or could not start. */
  error?: string;
  timedOut: boolean;
  cancelled: boolean;
  stderr: string;
  exitCode: number | null;
  durationMs: number;
}

/** The child's entry file. */
export function childEntry(): string {
  return join(packageRoot(), 'src', 'main', 'user-hooks', 'script-hooks', 'child.ts');
}

/** The Node the child runs on: this process's own (inside Electron, Electron's Node mode). */
function nodeCommand(env: NodeJS.ProcessEnv): { command: string; env: NodeJS.ProcessEnv } {
  const electron = Boolean(process.versions.electron);
  return { command: process.execPath, env: electron ? { ...env, ELECTRON_RUN_AS_NODE: '1' } : env };
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Runs the call. Contract: never rejects; resolves by the deadline (plus reaping) at the latest. */
export function runScript(spec: ScriptRunSpec): Promise<ScriptRunResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    let stderr = '';
    let stdoutBytes = 0;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let child: ChildProcess | undefined;
    const marker = newProcessMarker();
    const finish = (part: Partial<ScriptRunResult>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      if (child) {
        killGroup(child);
        void killMarked(marker).catch(() => 0);
      }
      resolve({
        timedOut: false,
        cancelled: false,
        exitCode: child?.exitCode ?? null,
        ...part,
        stderr: redactSecrets(stderr),
        durationMs: Math.round(performance.now() - started),
      });
    };
    const onAbort = () => finish({ cancelled: true, error: 'cancelled' });
    // Once answered, the child gets a moment to exit so its last stderr is kept, then goes anyway.
    let answered: Partial<ScriptRunResult> | undefined;
    const answer = (part: Partial<ScriptRunResult>) => {
      answered = part;
      clearTimeout(timer);
      timer = setTimeout(() => finish(part), EXIT_WAIT_MS);
    };
    if (spec.signal?.aborted) return onAbort();
    const entry = childEntry();
    // A build without the sources (the packaged app) cannot run scripts: say so instead of crashing.
    if (!existsSync(entry))
      return finish({ error: `script hooks need ${entry}, missing in this build` });
    const node = nodeCommand(withMarker(spec.env, marker));
    try {
      child = spawn(node.command, ['--disable-warning=ExperimentalWarning', entry], {
        cwd: spec.cwd,
        env: node.env,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (err) {
      return finish({ error: `cannot start the script: ${(err as Error).message}` });
    }
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(
      () => finish({ timedOut: true, error: `script timed out after ${spec.timeoutMs} ms` }),
      spec.timeoutMs,
    );
    child.on('error', (err) => finish({ error: `cannot start the script: ${err.message}` }));
    child.stdin!.on('error', () => {});
    child.stdin!.end(`${JSON.stringify(spec.call)}\n`);
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_CAP_BYTES) stderr += chunk.toString('utf8');
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > STDOUT_CAP_BYTES) finish({ error: 'script output too large' });
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (settled || answered) return;
      const note = parseNote(line);
      if (!note) {
        if (stderr.length < STDERR_CAP_BYTES) stderr += `${line}\n`;
      } else if (note.t === 'result') {
        answer({ value: note.value, ...(note.absent ? { absent: true } : {}) });
      } else if (note.t === 'error') {
        answer({ error: note.message });
      } else {
        spec.onNote(note);
      }
    });
    child.on('close', (code, signal) => {
      if (answered) return finish({ ...answered, exitCode: code });
      const tail = stderr.trim().split('\n').slice(-3).join(' | ');
      finish({
        exitCode: code,
        error: `script ended (${signal ?? `exit ${code}`}) without an answer${tail ? `: ${tail}` : ''}`,
      });
    });
  });
}

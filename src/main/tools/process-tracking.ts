/**
 * Finds the processes a child left behind after it ended, even those that left its process group
 * (`setsid`, `nohup … & disown`, a double fork): each tracked child gets a random marker in its
 * environment, which every descendant inherits, and on Linux a sweep of `/proc/<pid>/environ` kills
 * every process of this user that carries it. A process that clears or replaces its environment
 * (`env -i`, a fresh execve environment) escapes the sweep; the sandbox's PID namespace
 * (docs/security.md) is what ends those.
 */
import { randomFillSync } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';

/** The environment variable holding the marker. */
export const MARKER_VARIABLE = 'WORKBENCH_CALL';

/** Rounds of scan-and-kill: a process forking while we scan is caught by the next round. */
const MAX_ROUNDS = 5;

/**
 * Markers are cut from a pool of OS randomness drawn 32 at a time: OpenSSL reseeds its generator
 * after every fork, so a marker drawn on its own before each spawn cost 50 µs instead of 1.
 */
const MARKER_BYTES = 16;
const pool = Buffer.alloc(MARKER_BYTES * 32);
let poolAt = pool.length;

/** A fresh marker for one child tree: add `{ [MARKER_VARIABLE]: marker }` to its environment. */
export function newProcessMarker(): string {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += MARKER_BYTES;
  return pool.toString('hex', poolAt - MARKER_BYTES, poolAt);
}

/** The environment `env` plus the marker. */
export function withMarker(env: Record<string, string>, marker: string): Record<string, string>;
export function withMarker(env: NodeJS.ProcessEnv, marker: string): NodeJS.ProcessEnv;
export function withMarker(env: NodeJS.ProcessEnv, marker: string): NodeJS.ProcessEnv {
  return { ...env, [MARKER_VARIABLE]: marker };
}

/** Pids of this user's live processes (other than this one) whose environment carries one of `markers`. */
export async function findMarked(markers: readonly string[]): Promise<number[]> {
  if (process.platform !== 'linux' || markers.length === 0) return [];
  const wanted = new Set(markers);
  const prefix = Buffer.from(`\0${MARKER_VARIABLE}=`);
  const uid = process.getuid?.();
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const pids = entries
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((pid) => pid !== process.pid);
  const found: number[] = [];
  await Promise.all(
    pids.map(async (pid) => {
      try {
        if (uid !== undefined && (await stat(`/proc/${pid}`)).uid !== uid) return;
        // A leading NUL so the first variable matches like the others.
        const environ = Buffer.concat([
          Buffer.from([0]),
          await readFile(`/proc/${pid}/environ`),
          Buffer.from([0]),
        ]);
        const at = environ.indexOf(prefix);
        if (at < 0) return;
        const value = environ.subarray(at + prefix.length, environ.indexOf(0, at + prefix.length));
        if (wanted.has(value.toString())) found.push(pid);
      } catch {
        // gone, a kernel thread, or not ours to read
      }
    }),
  );
  return found;
}

/**
 * Kills (SIGKILL) every process carrying one of `markers` and returns how many it killed.
 * Contract: Linux only (elsewhere returns 0); bounded (a few rounds of a /proc scan), never throws.
 */
export async function killMarked(...markers: string[]): Promise<number> {
  const killed = new Set<number>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const pids = await findMarked(markers);
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.add(pid);
      } catch {
        // already gone
      }
    }
  }
  return killed.size;
}

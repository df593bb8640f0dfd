/**
 * Whether this machine can sandbox commands: on Linux bubblewrap, probed once by running `true`
 * under the same isolation a command gets (user namespaces may be disabled, or bwrap missing); on
 * macOS `sandbox-exec`; elsewhere nothing. The answer, with the reason when unavailable, is cached;
 * a successful probe is also remembered between processes (probe-memo.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { bwrapIsolation } from './bwrap-args.ts';
import { probeRemembered, rememberProbe } from './probe-memo.ts';

/** The OS sandbox a command would run in, or why there is none. */
export type SandboxAvailability =
  | { available: true; engine: 'bubblewrap' | 'seatbelt'; program: string }
  | { available: false; reason: string };

const PROBE_TIMEOUT_MS = 10_000;

/** The first `name` on PATH, or undefined. */
export function which(name: string, pathVar = process.env.PATH ?? ''): string | undefined {
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

function probeBwrap(program: string): Promise<SandboxAvailability> {
  const args = [...bwrapIsolation(false), '--', 'true'];
  return new Promise((resolve) => {
    execFile(program, args, { timeout: PROBE_TIMEOUT_MS }, (err, _stdout, stderr) => {
      if (!err) return resolve({ available: true, engine: 'bubblewrap', program });
      const why = String(stderr).trim().split('\n')[0] || err.message;
      resolve({ available: false, reason: `bwrap cannot create a sandbox here: ${why}` });
    });
  });
}

async function detect(memoFile: string | undefined): Promise<SandboxAvailability> {
  if (process.platform === 'linux') {
    const program = which('bwrap');
    if (!program) return { available: false, reason: 'bwrap not found; install bubblewrap' };
    if (memoFile && probeRemembered(memoFile, program))
      return { available: true, engine: 'bubblewrap', program };
    const found = await probeBwrap(program);
    if (found.available && memoFile) await rememberProbe(memoFile, program);
    return found;
  }
  if (process.platform === 'darwin') {
    const program = '/usr/bin/sandbox-exec';
    if (existsSync(program)) return { available: true, engine: 'seatbelt', program };
    return { available: false, reason: 'sandbox-exec not found' };
  }
  return { available: false, reason: `no OS sandbox for commands on ${process.platform}` };
}

let cached: Promise<SandboxAvailability> | undefined;

/**
 * Contract: probes at most once per process, not at all while `memoFile` (given by the first call)
 * remembers a successful probe under the same conditions; never rejects.
 */
export function detectSandbox(opts: { memoFile?: string } = {}): Promise<SandboxAvailability> {
  cached ??= detect(opts.memoFile);
  return cached;
}

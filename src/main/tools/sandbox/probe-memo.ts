/**
 * bubblewrap's probe answer kept between processes, so a start need not spawn it (docs/performance.md).
 * Only a probe that succeeded is kept, with everything its answer depends on: the bwrap binary (path,
 * inode, size, times), this boot, this user and the kernel's user-namespace switches. It is trusted
 * while all of them are unchanged; a probe that failed is never kept and runs again on the next start.
 * An unreadable, foreign or malformed memo is ignored.
 */
import { readFileSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../../fs/atomic-write.ts';

// Whether an unprivileged user may create the namespaces bwrap needs (Debian, Ubuntu, upstream).
const NAMESPACE_SWITCHES = [
  '/proc/sys/kernel/random/boot_id',
  '/proc/sys/kernel/unprivileged_userns_clone',
  '/proc/sys/user/max_user_namespaces',
  '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
];

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/** What the probe's answer depends on, as one string; undefined when bwrap cannot be stat'ed. */
function conditions(program: string): string | undefined {
  const s = statSync(program, { throwIfNoEntry: false });
  if (!s) return undefined;
  return JSON.stringify([
    program,
    s.ino,
    s.size,
    s.mtimeMs,
    s.ctimeMs,
    process.getuid?.() ?? null,
    ...NAMESPACE_SWITCHES.map(readOrNull),
  ]);
}

/** True when `file` records a successful probe of `program` under the current conditions. */
export function probeRemembered(file: string, program: string): boolean {
  const text = readOrNull(file);
  if (text === null) return false;
  try {
    const memo = JSON.parse(text) as { conditions?: unknown };
    return typeof memo.conditions === 'string' && memo.conditions === conditions(program);
  } catch {
    return false;
  }
}

/** Records that `program` sandboxed a command under the current conditions. Best effort. */
export async function rememberProbe(file: string, program: string): Promise<void> {
  const now = conditions(program);
  if (now === undefined) return;
  try {
    await writeFileAtomic(file, `${JSON.stringify({ conditions: now })}\n`, { mode: 0o600 });
  } catch {
    // Not kept: the next start probes again.
  }
}

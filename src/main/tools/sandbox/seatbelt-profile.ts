/**
 * The macOS `sandbox-exec` profile for one sandboxed command (docs/tools.md#sandbox). Pure. Seatbelt
 * rules are by path, so protected paths that do not exist yet are denied like the others; the
 * private /tmp of bubblewrap becomes the per-user temporary folder.
 */
import { depth } from './bwrap-args.ts';
import type { SandboxPolicy } from './policy.ts';

/** A string literal of the profile language. */
function quote(p: string): string {
  return `"${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The profile text: deny by default; read everything except the hidden secrets (the workspace, the
 * writable and reopened paths readable again inside a hidden folder, a deeper rule winning as the
 * bubblewrap mounts do); write the workspace and the writable paths (minus the protected paths),
 * `tmpDir` and the terminal devices; network only when `policy.network`.
 * Contract: every path of the policy is absolute and real.
 */
export function seatbeltProfile(policy: SandboxPolicy, tmpDir: string): string {
  // The last matching rule wins: shallowest first, and at one path a hidden rule after a visible one.
  const reads = [
    ...[policy.workspace, ...policy.writable, ...policy.reopened].map((p) => ({
      at: p,
      rule: `(allow file-read* (subpath ${quote(p)}))`,
    })),
    ...policy.hiddenDirs.map((p) => ({ at: p, rule: `(deny file-read* (subpath ${quote(p)}))` })),
    ...policy.hiddenFiles.map((p) => ({ at: p, rule: `(deny file-read* (literal ${quote(p)}))` })),
    // A hook's own script stays readable inside a hidden folder.
    ...policy.readable.map((p) => ({ at: p, rule: `(allow file-read* (literal ${quote(p)}))` })),
  ].sort((a, b) => depth(a.at) - depth(b.at));
  const notProtected = policy.protectedPaths.map((p) => `(require-not (subpath ${quote(p)}))`);
  const writable = [policy.workspace, ...policy.writable].map(
    (p) => `  (require-all (subpath ${quote(p)}) ${notProtected.join(' ')})`,
  );
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm)',
    '(allow file-read*)',
    ...reads.map((r) => r.rule),
    '(allow file-write*',
    ...writable,
    `  (subpath ${quote(tmpDir)})`,
    '  (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))',
    ...(policy.network ? ['(allow network* system-socket)'] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * The macOS `sandbox-exec` profile for one sandboxed command (docs/tools.md#sandbox). Pure. Seatbelt
 * rules are by path, so protected paths that do not exist yet are denied like the others; the
 * private /tmp of bubblewrap becomes the per-user temporary folder.
 */
import type { SandboxPolicy } from './policy.ts';

/** A string literal of the profile language. */
function quote(p: string): string {
  return `"${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The profile text: deny by default; read everything except the hidden secrets; write the
 * workspace (minus the protected paths), `tmpDir` and the terminal devices; network only when
 * `policy.network`.
 * Contract: `protectedPaths`, `hiddenDirs` and `hiddenFiles` are absolute real paths.
 */
export function seatbeltProfile(policy: SandboxPolicy, tmpDir: string): string {
  const hidden = [
    ...policy.hiddenDirs.map((p) => `(subpath ${quote(p)})`),
    ...policy.hiddenFiles.map((p) => `(literal ${quote(p)})`),
  ];
  const notProtected = policy.protectedPaths.map((p) => `(require-not (subpath ${quote(p)}))`);
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm)',
    '(allow file-read*)',
    ...(hidden.length > 0 ? [`(deny file-read* ${hidden.join(' ')})`] : []),
    // The last matching rule wins: a hook's own script stays readable inside a hidden folder.
    ...policy.readable.map((p) => `(allow file-read* (literal ${quote(p)}))`),
    '(allow file-write*',
    `  (require-all (subpath ${quote(policy.workspace)}) ${notProtected.join(' ')})`,
    `  (subpath ${quote(tmpDir)})`,
    '  (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))',
    ...(policy.network ? ['(allow network* system-socket)'] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Calls that always need a person's approval, whatever the approval mode: destructive or
 * piped-to-shell commands, and writes to files that make the workbench or git run code later (hooks,
 * settings, agent profile, .git). Heuristics, not a sandbox: they catch the common and the injected
 * forms; the approval prompt shows exactly what will run.
 */
import { isAbsolute, normalize, relative, resolve, sep } from 'node:path';
import { callEffects } from './call-policy.ts';
import type { Tool } from './types.ts';
import { isCaseInsensitiveFs, realTargetSync } from './real-target.ts';

const DANGEROUS_COMMANDS: Array<[RegExp, string]> = [
  [
    /\brm\s+(-[a-zA-Z]*[rRf][a-zA-Z]*\s+)+(--\s+)?(\/|~|\$HOME|\.\.|\*|\/\*)(\s|\/?$|\/\*)/,
    'deletes a whole tree outside the project or everything',
  ],
  [/\b(curl|wget)\b[^|;&]*\|\s*(sudo\s+)?(ba|z|da|k)?sh\b/, 'pipes a download into a shell'],
  [/\bbase64\s+(-d|--decode)\b[^|]*\|\s*(ba|z)?sh\b/, 'runs decoded text as a shell script'],
  [/\beval\b/, 'evaluates constructed shell code'],
  [/\bdd\b[^;&|]*\bof=\/dev\//, 'writes to a raw device'],
  [/\bmkfs(\.\w+)?\b/, 'formats a file system'],
  [/\bchmod\s+(-[a-zA-Z]*R[a-zA-Z]*\s+)+[0-7]*777\s+\/(\s|$)/, 'opens up the whole file system'],
  [/\bgit\s+push\b[^;&|]*(\s--force\b|\s-f\b|\s--force-with-lease\b)/, 'force-pushes'],
  [/:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;/, 'is a fork bomb'],
  [/\b(shutdown|reboot|halt|poweroff)\b/, 'stops the machine'],
  [/>\s*\/dev\/(sd|nvme|hd)[a-z0-9]*/, 'overwrites a disk'],
  [/\bsudo\b/, 'runs as root'],
];

/** More chained commands than a person reads at a glance: treated as risky (50-subcommand bypass lesson). */
const MAX_CHAIN = 20;

const PROTECTED_PATHS: Array<[RegExp, string]> = [
  [/^\.git(\/|$)/, 'is inside .git (git hooks and config run code)'],
  [/^\.workbench\/hooks(\/|$)/, 'is a workbench hook (hooks run as programs)'],
  [/^\.workbench\/(settings|agent)\.(json|ya?ml)$/, 'is workbench configuration'],
  [/^\.claude\/(settings(\.local)?\.json|hooks(\/|$))/, 'is Claude Code hook configuration'],
];

/**
 * Why a call must be approved by a person even in `auto` mode, or undefined when it need not be.
 * Contract: reads the call's effects, so every path any tool writes meets the protected paths and
 * every command any tool runs meets the command rules; invalid arguments (never run) give undefined.
 */
export function alwaysAskReason(
  tool: Tool,
  args: unknown,
  workspaceRoot: string,
): string | undefined {
  const effects = callEffects(tool, args);
  if (!effects) return undefined;
  if (effects.executes !== undefined) {
    const reason = commandRisk(effects.executes);
    if (reason) return reason;
  }
  for (const path of effects.writes ?? []) {
    const reason = protectedPathReason(path, workspaceRoot);
    if (reason) return reason;
  }
  return undefined;
}

function commandRisk(command: string): string | undefined {
  for (const [re, why] of DANGEROUS_COMMANDS) if (re.test(command)) return `this command ${why}`;
  if (command.split(/&&|\|\||;|\n/).length > MAX_CHAIN)
    return `this command chains more than ${MAX_CHAIN} commands`;
  return undefined;
}

/**
 * Why writing `path` needs a person, decided on the real path the tool will open (a `cfg -> .claude`
 * link, `/proc/self/root/…`), case-insensitively where the workspace's file system is.
 */
function protectedPathReason(path: string, workspaceRoot: string): string | undefined {
  if (!path) return undefined;
  const real = workspaceRelative(realTargetSync(path, workspaceRoot), workspaceRoot);
  if (real === undefined) return undefined; // the path guard refuses it anyway
  const rel = isCaseInsensitiveFs(workspaceRoot) ? real.toLowerCase() : real;
  for (const [re, why] of PROTECTED_PATHS) if (re.test(rel)) return `${real} ${why}`;
  return undefined;
}

function workspaceRelative(path: string, root: string): string | undefined {
  if (!path) return undefined;
  const abs = isAbsolute(path) ? normalize(path) : resolve(root, path);
  const rel = relative(root, abs);
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

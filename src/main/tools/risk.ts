/**
 * Calls that always need a person's approval, whatever the approval mode: commands the command
 * policy does not pass (command-policy.ts), and writes to files that make the workbench or git run
 * code later (protected-paths.ts). The approval prompt shows exactly what will run.
 */
import { homedir } from 'node:os';
import { isAbsolute, normalize, relative, resolve, sep } from 'node:path';
import { callEffects } from './call-policy.ts';
import { commandPolicy } from './command-policy.ts';
import { protectedPathReason, protectedThroughLink } from './protected-paths.ts';
import type { Tool } from './types.ts';
import { realTargetSync } from './real-target.ts';
import { isInside } from './path-guard.ts';
import type { OutsideProgram } from './program-files.ts';

/** How the call's command will run (the sandbox decides which command rules still apply). */
export interface RiskOptions {
  sandboxed?: boolean;
  network?: boolean;
  /** The user's home folder; `os.homedir()` when absent. */
  home?: string;
  /** Working directories added to the workspace (`--add-dir`), protected as the workspace is. */
  extraRoots?: readonly string[];
  /** Files the run's hooks and servers run outside the sandbox (`Workspace.programs`), protected too. */
  programs?: readonly OutsideProgram[];
  /** The file whose `blockReadsOutsideWorkingDirectories` keeps commands' reads in (SandboxSettings.reads_kept_by). */
  readsKeptBy?: string;
}

/**
 * Why a call must be approved by a person even in `auto` mode, or undefined when it need not be.
 * Contract: reads the call's effects, so every path any tool writes meets the protected paths and
 * every command any tool runs meets the command rules; invalid arguments (never run) give undefined.
 */
export function alwaysAskReason(
  tool: Tool,
  args: unknown,
  workspaceRoot: string,
  opts: RiskOptions = {},
): string | undefined {
  const effects = callEffects(tool, args);
  if (!effects) return undefined;
  if (effects.executes !== undefined) {
    const { reasons } = commandPolicy(effects.executes, {
      workspaceRoot,
      extraRoots: opts.extraRoots,
      home: opts.home ?? homedir(),
      sandboxed: opts.sandboxed ?? false,
      network: opts.network,
      programs: opts.programs,
      readsKeptBy: opts.readsKeptBy,
    });
    if (reasons.length) return reasons.join('; ');
  }
  for (const path of effects.writes ?? []) {
    const reason = protectedWriteReason(
      path,
      [workspaceRoot, ...(opts.extraRoots ?? [])],
      opts.programs ?? [],
    );
    if (reason) return reason;
  }
  return undefined;
}

/**
 * Why writing `path` needs a person, decided on the real path the tool will open (a `cfg -> .claude`
 * link, `/proc/self/root/…`); the protected-path match ignores case, as a case-insensitive file system does.
 */
function protectedWriteReason(
  path: string,
  roots: readonly string[],
  programs: readonly OutsideProgram[],
): string | undefined {
  if (!path) return undefined;
  const target = realTargetSync(path, roots[0]!);
  // The workspace first: it may lie inside an added working directory.
  const real = roots.map((root) => workspaceRelative(target, root)).find((r) => r !== undefined);
  if (real === undefined) return undefined; // the path guard refuses it anyway
  const program = programs.find((p) => isInside(target, p.path));
  return (
    protectedPathReason(real) ??
    roots.map((root) => protectedThroughLink(target, root)).find((r) => r !== undefined) ??
    (program && `${real} ${program.why}`)
  );
}

function workspaceRelative(path: string, root: string): string | undefined {
  if (!path) return undefined;
  const abs = isAbsolute(path) ? normalize(path) : resolve(root, path);
  const rel = relative(root, abs);
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

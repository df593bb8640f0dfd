/**
 * The command sandbox for a user hook that opted in (docs/hooks.md#sandboxing-a-hook): the same
 * policy as `execute`, plus the hook's own script bound read-only (it may live in the hidden
 * workbench home). The hook asked for containment, so it is treated as `sandbox.mode: required`
 * whatever the mode for commands: without a sandbox it does not run.
 */
import os from 'node:os';
import path from 'node:path';
import type { SandboxSettings } from '../../../shared/types/index.ts';
import { commandSandbox } from './command-sandbox.ts';
import { detectSandbox, type SandboxAvailability } from './detect.ts';
import { shellQuote, wrapCommand, type WrappedCommand } from './wrap-command.ts';

/** Where a sandboxed hook runs. */
export interface HookSandboxOptions {
  /** The sandbox settings; only `network` applies (a hook that opted in is always sandboxed). */
  settings: SandboxSettings;
  workspace: string;
  /** $WORKBENCH_HOME, hidden except for `scripts`. */
  workbenchHome: string;
  /** The hook's own script files, bound read-only. */
  scripts: string[];
  /** The user's home folder whose secrets are hidden (default os.homedir()). */
  home?: string;
  /** Whether this machine can sandbox (default: the cached probe). */
  detect?: () => Promise<SandboxAvailability>;
}

/** The hook's process as the runner would start it. */
export interface HookProcess {
  command: string;
  args?: string[];
  shell?: boolean;
  cwd: string;
}

/** Interpreters whose first operand is the hook's script (`python3 ~/.claude/hooks/x.py`). */
const INTERPRETERS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'python',
  'python3',
  'node',
  'ruby',
  'perl',
  'deno',
  'bun',
]);

/**
 * The script a shell-form hook command runs: its program, or the first operand of an interpreter,
 * with `~`, `$HOME` and the project-dir variables expanded. Best effort: a word that is no file is
 * simply not bound.
 */
export function hookScripts(proc: HookProcess, home: string, workspace: string): string[] {
  const expand = (w: string) =>
    w
      .replace(/^["']|["']$/g, '')
      .replace(/^~(?=\/|$)/, home)
      .replace(/\$\{?HOME\}?/g, home)
      .replace(/\$\{?(CLAUDE|WORKBENCH)_PROJECT_DIR\}?/g, workspace);
  const words = proc.shell
    ? proc.command.trim().split(/\s+/).map(expand)
    : [proc.command, ...(proc.args ?? [])];
  const [program, ...rest] = words;
  if (!program) return [];
  const operand = INTERPRETERS.has(path.basename(program))
    ? rest.find((w) => !w.startsWith('-'))
    : undefined;
  return [program, ...(operand ? [operand] : [])]
    .filter((w) => path.isAbsolute(w) || w.startsWith('.'))
    .map((w) => path.resolve(proc.cwd, w));
}

/**
 * The hook's process wrapped in the sandbox, as a shell command for `/bin/sh -c`, or why it cannot be.
 * Contract: never runs unsandboxed — `refused` when the machine has no sandbox; `cleanup` must be
 * called once the process ended.
 */
export async function wrapHookProcess(
  opts: HookSandboxOptions,
  proc: HookProcess,
): Promise<WrappedCommand | { refused: string }> {
  const availability = await (opts.detect ?? detectSandbox)();
  const sandbox = commandSandbox(
    { mode: 'required', network: opts.settings.network },
    availability,
  );
  if (sandbox.kind !== 'sandboxed') {
    const why = availability.available ? sandbox.kind : availability.reason;
    return { refused: `the hook asked for the sandbox, which is unavailable: ${why}` };
  }
  const home = opts.home ?? os.homedir();
  const inner = proc.shell
    ? proc.command
    : [proc.command, ...(proc.args ?? [])].map(shellQuote).join(' ');
  return wrapCommand(
    sandbox,
    {
      workspace: opts.workspace,
      home,
      workbenchHome: opts.workbenchHome,
      network: sandbox.network,
      hostSockets: sandbox.hostSockets,
      readable: [...opts.scripts, ...hookScripts(proc, home, opts.workspace)],
    },
    '/bin/sh',
    inner,
    proc.cwd,
  );
}

/**
 * The command sandbox for a user hook that opted in (docs/hooks.md#sandboxing-a-hook): the same
 * policy as `execute`, plus the hook's own script bound read-only (it may live in the hidden
 * workbench home). The hook asked for containment, so it is treated as `sandbox.mode: required`
 * whatever the mode for commands: without a sandbox it does not run.
 */
import os from 'node:os';
import type { SandboxSettings } from '../../../shared/types/index.ts';
import { commandSandbox } from './command-sandbox.ts';
import { detectSandbox, type SandboxAvailability } from './detect.ts';
import { shellQuote, wrapCommand, type WrappedCommand } from './wrap-command.ts';
import { programFiles } from '../program-files.ts';

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
      readable: [
        ...opts.scripts,
        ...programFiles(
          { ...proc, shell: proc.shell === true },
          { home, workspace: opts.workspace },
        ),
      ],
    },
    '/bin/sh',
    inner,
    proc.cwd,
  );
}

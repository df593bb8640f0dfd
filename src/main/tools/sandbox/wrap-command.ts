/**
 * Turns a shell command into one that runs inside the sandbox: `exec bwrap … -- shell -c command`
 * (or `sandbox-exec -p profile …`), for the process-group runner to start like any command, so
 * deadlines, cancel and the group kill work unchanged. Placeholders bubblewrap leaves in the
 * workspace for missing protected paths are removed afterwards.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import { bwrapArgs } from './bwrap-args.ts';
import { seatbeltProfile } from './seatbelt-profile.ts';
import { notePlaceholders, sweepPlaceholders } from './placeholder-journal.ts';
import { resolveSandboxPolicy, type SandboxPolicyInput } from './policy.ts';
import type { CommandSandbox } from './command-sandbox.ts';

/** A POSIX shell word that stands for `s` exactly. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A sandboxed command ready for the runner, and the cleanup to call once it ended. */
export interface WrappedCommand {
  command: string;
  /** Variables that must differ inside the sandbox (its private temporary folder). */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/** Contract: `sandbox` is sandboxed; `cwd` lies inside `input.workspace`. */
export async function wrapCommand(
  sandbox: Extract<CommandSandbox, { kind: 'sandboxed' }>,
  input: SandboxPolicyInput,
  shell: string,
  command: string,
  cwd: string,
): Promise<WrappedCommand> {
  const policy = await resolveSandboxPolicy(input);
  if (sandbox.engine === 'seatbelt') {
    const tmp = await fs.realpath(os.tmpdir());
    const argv = [sandbox.program, '-p', seatbeltProfile(policy, tmp), shell, '-c', command];
    return { command: `exec ${argv.map(shellQuote).join(' ')}`, env: {}, cleanup: async () => {} };
  }
  const argv = [sandbox.program, ...bwrapArgs(policy, shell, command, cwd)];
  await sweepPlaceholders(input.workbenchHome);
  const cleanup = await notePlaceholders(input.workbenchHome, policy.placeholders);
  return {
    command: `exec ${argv.map(shellQuote).join(' ')}`,
    env: { TMPDIR: '/tmp', TMP: '/tmp', TEMP: '/tmp' },
    cleanup,
  };
}

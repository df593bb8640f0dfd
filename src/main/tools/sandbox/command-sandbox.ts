/**
 * Whether a command runs sandboxed under the settings on this machine, and the one line that says
 * so to the user (CLI, Settings panel, tool result). The approval ring and `execute` both decide
 * here, so "sandboxed, may run without asking" and "ran sandboxed" never disagree.
 */
import type { SandboxSettings } from '../../../shared/types/index.ts';
import type { SandboxAvailability } from './detect.ts';

/** How commands run: sandboxed, unsandboxed, or refused (`required` without a sandbox). */
export type CommandSandbox =
  | { kind: 'sandboxed'; engine: 'bubblewrap' | 'seatbelt'; program: string; network: boolean }
  | { kind: 'unsandboxed'; reason: string }
  | { kind: 'refused'; reason: string };

/** Contract: `off` never sandboxes; `required` refuses rather than run without a sandbox. */
export function commandSandbox(
  settings: SandboxSettings,
  availability: SandboxAvailability,
): CommandSandbox {
  if (settings.mode === 'off')
    return { kind: 'unsandboxed', reason: 'the sandbox is off in settings' };
  if (availability.available) {
    const { engine, program } = availability;
    return { kind: 'sandboxed', engine, program, network: settings.network };
  }
  if (settings.mode === 'required') {
    return {
      kind: 'refused',
      reason: `the sandbox is required ${settings.required_by ? `by sandbox.failIfUnavailable in ${settings.required_by}` : 'in settings'} but unavailable: ${availability.reason}`,
    };
  }
  return { kind: 'unsandboxed', reason: availability.reason };
}

/** The plain-language line: `sandboxed (bubblewrap, no network)`, `NOT sandboxed — <why>`. */
export function describeCommandSandbox(s: CommandSandbox): string {
  if (s.kind === 'sandboxed')
    return `sandboxed (${s.engine}, ${s.network ? 'network allowed' : 'no network'})`;
  if (s.kind === 'refused') return `refused — ${s.reason}`;
  return `NOT sandboxed — ${s.reason}`;
}

/**
 * Whether a command runs sandboxed under the settings on this machine, and the one line that says
 * so to the user (CLI, Settings panel, tool result). The approval ring and `execute` both decide
 * here, so "sandboxed, may run without asking" and "ran sandboxed" never disagree.
 */
import type { SandboxSettings } from '../../../shared/types/index.ts';
import { everyCommandMatches } from '../../user-hooks/claude-rules.ts';
import type { SandboxAvailability } from './detect.ts';

/** How commands run: sandboxed, unsandboxed, or refused (`required` without a sandbox). */
export type CommandSandbox =
  | {
      kind: 'sandboxed';
      engine: 'bubblewrap' | 'seatbelt';
      program: string;
      network: boolean;
      /** Without `network`: the only domains reachable, through the workbench's proxy (bubblewrap). */
      domains?: string[];
      /** With `domains`: those the proxy refuses even so. */
      deniedDomains?: string[];
      /** The host's Unix sockets are left visible (`allowAllUnixSockets`). */
      hostSockets?: true;
    }
  | {
      kind: 'unsandboxed';
      reason: string;
      /** Claude Code's `excludedCommands` take this command out of a sandbox that is there. */
      excluded?: true;
    }
  | { kind: 'refused'; reason: string };

/**
 * How `command` runs (how commands run, without one). Contract: `off` never sandboxes; a command
 * made only of commands Claude Code's `excludedCommands` name runs unsandboxed; otherwise
 * `required` refuses rather than run without a sandbox.
 */
export function commandSandbox(
  settings: SandboxSettings,
  availability: SandboxAvailability,
  command?: string,
): CommandSandbox {
  if (settings.mode === 'off')
    return { kind: 'unsandboxed', reason: 'the sandbox is off in settings' };
  const excluded = command !== undefined && excludedBy(settings, command);
  if (excluded) return { kind: 'unsandboxed', reason: excluded, excluded: true };
  if (availability.available) {
    const { engine, program } = availability;
    const domains = settings.allowed_domains ?? [];
    // The proxy needs a network namespace of the command's own: bubblewrap's, not seatbelt's.
    const proxied = !settings.network && engine === 'bubblewrap' && domains.length > 0;
    return {
      kind: 'sandboxed',
      engine,
      program,
      network: settings.network,
      ...(proxied ? { domains } : {}),
      ...(proxied && settings.denied_domains?.length
        ? { deniedDomains: settings.denied_domains }
        : {}),
      ...(settings.unix_sockets ? { hostSockets: true as const } : {}),
    };
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
  if (s.kind === 'sandboxed') {
    const n = s.domains?.length ?? 0;
    const network = s.network
      ? 'network allowed'
      : n > 0
        ? `network to ${n === 1 ? s.domains![0] : `${n} allowed domains`} only`
        : 'no network';
    return `sandboxed (${s.engine}, ${network})`;
  }
  if (s.kind === 'refused') return `refused — ${s.reason}`;
  return `NOT sandboxed — ${s.reason}`;
}

/** Why `command` runs outside the sandbox by `excludedCommands`, or undefined. */
function excludedBy(settings: SandboxSettings, command: string): string | undefined {
  const excluded = settings.excluded_commands ?? [];
  if (
    !excluded.length ||
    !everyCommandMatches(
      excluded.map((e) => e.pattern),
      command,
    )
  )
    return undefined;
  const files = [...new Set(excluded.map((e) => e.file))].join(', ');
  return `excluded from it by sandbox.excludedCommands in ${files}`;
}

/**
 * The line for how a run's commands run (CLI, Settings panel): `describeCommandSandbox`, and the
 * commands `excludedCommands` take out of the sandbox, when there is one to take them out of.
 */
export function describeRunSandbox(
  settings: SandboxSettings,
  availability: SandboxAvailability,
): string {
  const sandbox = commandSandbox(settings, availability);
  const excluded = settings.excluded_commands ?? [];
  const outside =
    sandbox.kind !== 'unsandboxed' && excluded.length
      ? `; outside it: ${excluded.map((e) => e.pattern).join(', ')} (sandbox.excludedCommands)`
      : '';
  const readsIn =
    sandbox.kind === 'sandboxed' && settings.reads_kept_by
      ? '; reads kept to the working directories (permissions.blockReadsOutsideWorkingDirectories)'
      : '';
  return describeCommandSandbox(sandbox) + outside + readsIn;
}

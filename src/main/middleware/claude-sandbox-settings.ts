/**
 * Claude Code's `sandbox` settings block, read from the same settings files as the permission
 * rules (docs/security.md#claude-codes-sandbox-settings). Its `filesystem` lists — `denyRead`,
 * `allowRead`, `denyWrite`, `allowWrite` — become absolute paths for the command sandbox, so a
 * user's own sandbox boundaries hold here as at home. Deny lists count from every file (they only
 * add protection; a workspace not trusted yet only for what lies in it); allow lists widen what
 * commands reach, so only from your own files and a trusted workspace's, and never over the secrets
 * the sandbox always hides; `credentials.files` is hidden as `denyRead` is. `failIfUnavailable` makes
 * the sandbox required, `network.allowedDomains` lets sandboxed commands reach those domains through
 * the workbench's proxy.
 */
import { dirname, join, normalize } from 'node:path';
import { hasGlobMagic } from '../tools/glob-pattern.ts';
import { isInside } from '../tools/path-guard.ts';
import { HOME_SECRETS } from '../tools/sandbox/policy.ts';
import { userDirs } from '../tools/user-dirs.ts';
import { managedSettingsPath } from '../env/claude-config-dir.ts';
import {
  fileSetting,
  managedSets,
  parsedSettings,
  readClaudeSettingsFiles,
  type ReadSettingsFile,
} from '../user-hooks/claude-config.ts';
import { parseClaudeRule } from '../user-hooks/claude-rules.ts';
import { isRecord } from '../user-hooks/json-output.ts';
import type { SandboxSettings, WorkbenchSettings } from '../../shared/types/index.ts';

export type SandboxPathList = 'denyRead' | 'allowRead' | 'denyWrite' | 'allowWrite';

/** One entry of a `sandbox.filesystem` list, resolved. */
export interface SandboxPathEntry {
  list: SandboxPathList;
  /** The settings file that holds it. */
  file: string;
  /** Absolute; a deny entry may hold wildcards (`~/.config/**\/token`). */
  path: string;
  /** From a workspace not trusted yet: the sandbox holds it only for what lies in the workspace. */
  untrusted?: true;
}

const LISTS: readonly SandboxPathList[] = ['denyRead', 'allowRead', 'denyWrite', 'allowWrite'];

/**
 * Claude Code's path prefixes for these lists: `/` and `//` from the root, `~/` from the home
 * folder, anything else from the project root in a workspace's settings and from the settings
 * file's own folder in yours (`~/.claude`). A trailing `/**` names the folder.
 */
function resolveEntry(text: string, base: string, home: string): string {
  const bare = text.replace(/(?:\/\*\*?)+$|\/+$/, '') || '/';
  if (bare.startsWith('/')) return normalize(bare.replace(/^\/+/, '/'));
  if (bare === '~') return home;
  if (bare.startsWith('~/')) return join(home, bare.slice(2));
  return join(base, bare);
}

/** Why an allow entry is left out, or undefined: it would open what the sandbox always hides. */
function allowRefusal(
  list: SandboxPathList,
  path: string,
  home: string,
  workbenchHome: string,
): string | undefined {
  if (hasGlobMagic(path)) return 'a sandbox opens paths, not patterns';
  if (path === '/') return 'it would open the whole file system';
  if (list === 'allowWrite' && isInside(home, path))
    return "it would let commands rewrite your shell's startup files; name the folders inside your home instead";
  if (isInside(path, '/proc') || isInside(path, '/sys'))
    return 'the sandbox keeps its own /proc and /sys';
  if (isInside(path, workbenchHome)) return `the sandbox always hides ${workbenchHome}`;
  const secret = HOME_SECRETS.map((rel) => join(home, rel)).find((s) => isInside(path, s));
  return secret && `the sandbox always hides ${secret}`;
}

/** Why a deny entry is left out, or undefined. */
function denyRefusal(path: string, list: SandboxPathList, workspace: string): string | undefined {
  if (list === 'denyRead' && path === '/') return 'it would hide every program from commands';
  // A sandbox hides paths: a pattern is listed in the workspace, not over the whole disk.
  if (hasGlobMagic(path) && !isInside(path, workspace))
    return 'a pattern with wildcards outside the workspace cannot be listed';
  return undefined;
}

/**
 * `sandbox.credentials.files` (Claude Code 2.1.187): each path hidden from commands, as a `denyRead`
 * entry. `"mask"` (a placeholder the proxy swaps for the real value in requests) is held as `"deny"`:
 * the workbench's proxy puts no credential into a request, so commands see nothing, and the run's
 * start says so.
 */
function credentialFileEntries(
  sandbox: unknown,
  at: { file: string; base: string; untrusted: boolean },
  o: { workspace: string; home: string },
  diagnostics: string[],
): SandboxPathEntry[] {
  const credentials = isRecord(sandbox) ? sandbox.credentials : undefined;
  const items = isRecord(credentials) ? credentials.files : undefined;
  if (items === undefined) return [];
  const where = `${at.file}: sandbox.credentials.files`;
  if (!Array.isArray(items)) {
    diagnostics.push(`${where} must be a list of { "path", "mode" }`);
    return [];
  }
  return items.flatMap((item): SandboxPathEntry[] => {
    const text = isRecord(item) && typeof item.path === 'string' ? item.path.trim() : '';
    if (!text) {
      diagnostics.push(`${where}: ${JSON.stringify(item)} has no "path"`);
      return [];
    }
    const mode = (item as Record<string, unknown>).mode;
    if (mode === 'mask')
      diagnostics.push(
        `${where}: ${text} is hidden from commands, not masked: the workbench's proxy puts no credential into a request`,
      );
    else if (mode !== 'deny')
      diagnostics.push(
        `${where}: ${text}: "mode" must be "deny" or "mask"; it is hidden from commands`,
      );
    const path = resolveEntry(text, at.base, o.home);
    const refusal = denyRefusal(path, 'denyRead', o.workspace);
    if (refusal) {
      diagnostics.push(`${where}: ${text} is left out: ${refusal}`);
      return [];
    }
    return [
      {
        list: 'denyRead',
        file: at.file,
        path,
        ...(at.untrusted ? { untrusted: true as const } : {}),
      },
    ];
  });
}

/**
 * The `sandbox.filesystem` entries of the settings files, with what was left out and why.
 * Contract: never throws; `home` is the user's home folder, `workbenchHome` $WORKBENCH_HOME.
 */
export function sandboxFilesystemEntries(
  files: readonly ReadSettingsFile[],
  o: { workspace: string; home: string; workbenchHome: string; trusted: boolean },
): { entries: SandboxPathEntry[]; diagnostics: string[] } {
  const entries: SandboxPathEntry[] = [];
  const diagnostics: string[] = [];
  const parsed = parsedSettings(files);
  // An administrator's `allowManagedReadPathsOnly`: no other file's allowRead opens a path.
  const managedReadOnly = managedSets(files, 'sandbox', 'filesystem', 'allowManagedReadPathsOnly');
  for (const f of parsed) {
    const sandbox = isRecord(f.data) ? f.data.sandbox : undefined;
    const workspaceFile = f.scope === 'workspace';
    const base = workspaceFile ? o.workspace : dirname(f.path);
    const at = { file: f.path, base, untrusted: workspaceFile && !o.trusted };
    entries.push(...credentialFileEntries(sandbox, at, o, diagnostics));
    const fs = isRecord(sandbox) ? sandbox.filesystem : undefined;
    if (fs === undefined) continue;
    if (!isRecord(fs)) {
      diagnostics.push(`${f.path}: sandbox.filesystem must be an object of path lists`);
      continue;
    }
    for (const list of LISTS) {
      const items = fs[list];
      if (items === undefined) continue;
      const where = `${f.path}: sandbox.filesystem.${list}`;
      if (!Array.isArray(items)) {
        diagnostics.push(`${where} must be a list of paths`);
        continue;
      }
      const allow = list.startsWith('allow');
      // A workspace's allow lists widen what its commands reach: only once it is trusted.
      if (allow && workspaceFile && !o.trusted) continue;
      if (list === 'allowRead' && managedReadOnly && f.path !== managedSettingsPath()) continue;
      for (const item of items) {
        if (typeof item !== 'string' || item.trim() === '') {
          diagnostics.push(`${where}: ${JSON.stringify(item)} is not a path`);
          continue;
        }
        const path = resolveEntry(item.trim(), base, o.home);
        const refusal = allow
          ? allowRefusal(list, path, o.home, o.workbenchHome)
          : denyRefusal(path, list, o.workspace);
        if (refusal) {
          diagnostics.push(`${where}: ${item} is left out: ${refusal}`);
          continue;
        }
        entries.push({
          list,
          file: f.path,
          path,
          ...(workspaceFile && !o.trusted ? { untrusted: true as const } : {}),
        });
      }
    }
  }
  const keptBy = readsKeptBy(files);
  if (keptBy)
    for (const path of userDirs(o.home)) entries.push({ list: 'denyRead', file: keptBy, path });
  return { entries, diagnostics };
}

/**
 * The file that sets Claude Code's `permissions.blockReadsOutsideWorkingDirectories`: commands read
 * nothing in the user folders outside the working directories (the sandbox hides the rest of them;
 * an unsandboxed command that names a file there needs a person). Every file counts, trusted or
 * not, as for `failIfUnavailable`: it only narrows.
 */
const readsKeptBy = (files: readonly ReadSettingsFile[]) =>
  fileSetting(files, ['permissions', 'blockReadsOutsideWorkingDirectories'], true);

/** What the `sandbox` block asks of a run besides its paths. */
export interface ClaudeSandboxRun {
  /** The settings file whose `"enabled": true, "failIfUnavailable": true` requires the sandbox. */
  requiredBy?: string;
  /** `network.allowedDomains`: what sandboxed commands may reach while the network is off. */
  allowedDomains: string[];
  /** `network.deniedDomains` and `WebFetch(domain:…)` deny rules: kept from even when allowed. */
  deniedDomains: string[];
  /** The file whose `network.allowAllUnixSockets` leaves the host's Unix sockets to commands. */
  unixSocketsBy?: string;
  /** `excludedCommands`: the commands that run outside the sandbox, each with its file. */
  excludedCommands: Array<{ pattern: string; file: string }>;
  /** The file whose `permissions.blockReadsOutsideWorkingDirectories` keeps commands' reads in. */
  readsKeptBy?: string;
}

/** A host name, `*.` and a name, an IPv4 address or an IPv6 one. */
const DOMAIN =
  /^(?:\*\.)?[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*\.?$|^[0-9a-f:]*:[0-9a-f:.]*$/i;

/** The domains of a settings file's `WebFetch(domain:…)` rules of one kind (`allow`, `deny`). */
function webFetchDomains(
  f: ReturnType<typeof parsedSettings>[number],
  kind: 'allow' | 'deny',
): string[] {
  const permissions = isRecord(f.data) ? f.data.permissions : undefined;
  const rules = isRecord(permissions) ? permissions[kind] : undefined;
  if (!Array.isArray(rules)) return [];
  return rules.flatMap((text) => {
    const rule = typeof text === 'string' ? parseClaudeRule(text) : undefined;
    const domain =
      typeof rule === 'object' && rule.tool === 'WebFetch'
        ? rule.specifier?.match(/^domain:(.+)$/)?.[1]
        : undefined;
    return domain && (domain === '*' || DOMAIN.test(domain)) ? [domain] : [];
  });
}

/**
 * The run's `failIfUnavailable` (every file counts, trusted or not: it only refuses),
 * `network.allowedDomains` with the domains of `WebFetch(domain:…)` allow rules (your files and a
 * trusted workspace's, as allow rules count: they widen what commands reach), and
 * `network.deniedDomains` with those of `WebFetch(domain:…)` deny rules (every file: they only
 * narrow, and an administrator's `allowManagedDomainsOnly` leaves them counting, as in Claude Code).
 * Contract: never throws; what does not parse is a diagnostic.
 */
export function claudeSandboxRun(
  files: readonly ReadSettingsFile[],
  o: { trusted: boolean },
): { run: ClaudeSandboxRun; diagnostics: string[] } {
  const run: ClaudeSandboxRun = {
    allowedDomains: [],
    deniedDomains: [],
    excludedCommands: [],
    readsKeptBy: readsKeptBy(files),
  };
  const diagnostics: string[] = [];
  const add = (list: string[], domain: string) => {
    if (!list.includes(domain.toLowerCase())) list.push(domain.toLowerCase());
  };
  const allow = (domain: string) => add(run.allowedDomains, domain);
  const parsed = parsedSettings(files);
  const managed = managedSettingsPath();
  const managedRulesOnly = managedSets(files, 'allowManagedPermissionRulesOnly');
  // An administrator's `allowManagedDomainsOnly`: only the managed file's domains and rules count.
  const managedDomainsOnly = managedSets(files, 'sandbox', 'network', 'allowManagedDomainsOnly');
  const opensDomains = (f: ReadSettingsFile) =>
    (f.scope === 'user' || o.trusted) && (!managedDomainsOnly || f.path === managed);
  for (const f of parsed) {
    // `WebFetch(domain:…)` rules open and close their domain to sandboxed commands too, as in Claude Code.
    for (const domain of webFetchDomains(f, 'deny')) add(run.deniedDomains, domain);
    if (!opensDomains(f) || (managedRulesOnly && f.path !== managed)) continue;
    for (const domain of webFetchDomains(f, 'allow')) if (domain !== '*') allow(domain);
  }
  for (const f of parsed) {
    const sandbox = isRecord(f.data) ? f.data.sandbox : undefined;
    if (!isRecord(sandbox)) continue;
    if (sandbox.enabled === true && sandbox.failIfUnavailable === true) run.requiredBy ??= f.path;
    const ownOrTrusted = f.scope === 'user' || o.trusted;
    excludedCommands(f, sandbox.excludedCommands, ownOrTrusted, run, diagnostics);
    const network = sandbox.network;
    if (!isRecord(network)) continue;
    if (network.allowAllUnixSockets === true && opensDomains(f)) run.unixSocketsBy ??= f.path;
    if (network.deniedDomains !== undefined) {
      const where = `${f.path}: sandbox.network.deniedDomains`;
      if (!Array.isArray(network.deniedDomains))
        diagnostics.push(`${where} must be a list of domains`);
      else
        for (const d of network.deniedDomains) {
          if (typeof d === 'string' && (d === '*' || DOMAIN.test(d))) add(run.deniedDomains, d);
          else diagnostics.push(`${where}: ${JSON.stringify(d)} is not a domain`);
        }
    }
    if (network.allowedDomains === undefined || !opensDomains(f)) continue;
    const where = `${f.path}: sandbox.network.allowedDomains`;
    if (!Array.isArray(network.allowedDomains)) {
      diagnostics.push(`${where} must be a list of domains`);
      continue;
    }
    for (const d of network.allowedDomains) {
      if (d === '*')
        diagnostics.push(
          `${where}: * is left out: to open the whole network, set "sandbox": { "network": true } in the workbench's settings`,
        );
      else if (typeof d !== 'string' || !DOMAIN.test(d))
        diagnostics.push(`${where}: ${JSON.stringify(d)} is not a domain`);
      else allow(d);
    }
  }
  return { run, diagnostics };
}

/**
 * A file's `excludedCommands` (Bash rule patterns, `docker *`) into `run`. They take commands out of
 * the sandbox, so a workspace's count only once it is trusted.
 */
function excludedCommands(
  f: ReadSettingsFile,
  items: unknown,
  trusted: boolean,
  run: ClaudeSandboxRun,
  diagnostics: string[],
): void {
  if (items === undefined) return;
  const where = `${f.path}: sandbox.excludedCommands`;
  if (!Array.isArray(items)) {
    diagnostics.push(`${where} must be a list of commands such as "docker *"`);
    return;
  }
  if (!trusted) {
    if (items.length)
      diagnostics.push(
        `${where} is not read until the workspace is trusted (\`workbench trust DIR\`): its commands stay sandboxed`,
      );
    return;
  }
  for (const item of items) {
    const pattern = typeof item === 'string' ? item.trim() : '';
    if (pattern) run.excludedCommands.push({ pattern, file: f.path });
    else diagnostics.push(`${where}: ${JSON.stringify(item)} is not a command`);
  }
}

/**
 * The settings a run goes by: `sandbox.mode` `auto` becomes `required` when a Claude Code settings
 * file requires the sandbox (`off`, the user's explicit choice, stays off), and the allowed domains
 * ride along for the sandbox's proxy.
 */
export function withClaudeSandbox(
  settings: WorkbenchSettings,
  run: ClaudeSandboxRun | undefined,
): WorkbenchSettings {
  if (!run) return settings;
  const required = run.requiredBy !== undefined && settings.sandbox.mode === 'auto';
  if (
    !required &&
    run.allowedDomains.length === 0 &&
    !run.unixSocketsBy &&
    run.excludedCommands.length === 0 &&
    !run.readsKeptBy
  )
    return settings;
  return {
    ...settings,
    sandbox: {
      ...settings.sandbox,
      ...(required ? { mode: 'required' as const, required_by: run.requiredBy } : {}),
      ...(run.allowedDomains.length ? { allowed_domains: run.allowedDomains } : {}),
      ...(run.allowedDomains.length && run.deniedDomains.length
        ? { denied_domains: run.deniedDomains }
        : {}),
      ...(run.unixSocketsBy ? { unix_sockets: true } : {}),
      ...(run.excludedCommands.length ? { excluded_commands: run.excludedCommands } : {}),
      ...(run.readsKeptBy ? { reads_kept_by: run.readsKeptBy } : {}),
    },
  };
}

/**
 * The sandbox settings a run in `workspace` goes by — the workbench's with Claude Code's `sandbox`
 * block applied — for what the CLI and the Settings panel say before any run (`claudeSettings`:
 * the files when the caller read them already).
 */
export async function runSandboxSettings(
  settings: WorkbenchSettings,
  o: {
    workspace: string;
    home: string;
    trusted: boolean;
    claudeSettings?: readonly ReadSettingsFile[];
  },
): Promise<SandboxSettings> {
  const files = o.claudeSettings ?? (await readClaudeSettingsFiles(o.workspace, o.home));
  return withClaudeSandbox(settings, claudeSandboxRun(files, { trusted: o.trusted }).run).sandbox;
}

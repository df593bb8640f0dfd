/**
 * Claude Code's MCP server allow and deny lists (`allowedMcpServers`, `deniedMcpServers`), as an
 * administrator sets them in the managed settings or a user in their own: each entry names a server
 * (`serverName`), the exact command line of a stdio server (`serverCommand`) or the URL of a remote
 * one (`serverUrl`, `*` spans anything). A denied server never starts; with an allow list, only the
 * servers it covers start (an empty list allows none). Neither can be switched on in Settings.
 */
import type { SettingsData } from '../user-hooks/claude-plugins.ts';
import { isRecord } from '../user-hooks/json-output.ts';
import type { McpServerSpec } from './config.ts';
import { starToSource } from '../tools/glob-pattern.ts';

interface PolicyEntry {
  serverName?: string;
  serverCommand?: string[];
  serverUrl?: string;
  /** The settings file that holds it. */
  file: string;
}

export interface ServerPolicy {
  denied: PolicyEntry[];
  /** Absent: no allow list anywhere (every server may start). */
  allowed?: PolicyEntry[];
  /** The files that hold an allow list (an empty one included). */
  allowedIn: string[];
}

/** The lists of the user's own settings files (a workspace's files are not read for them). */
export function readServerPolicy(files: readonly (SettingsData & { path: string })[]): {
  policy: ServerPolicy;
  diagnostics: string[];
} {
  const policy: ServerPolicy = { denied: [], allowedIn: [] };
  const diagnostics: string[] = [];
  for (const f of files) {
    if (f.scope !== 'user' || !isRecord(f.data)) continue;
    for (const [key, into] of [
      ['deniedMcpServers', () => policy.denied],
      ['allowedMcpServers', () => (policy.allowed ??= [])],
    ] as const) {
      const list = f.data[key];
      if (list === undefined) continue;
      if (!Array.isArray(list)) {
        diagnostics.push(`${f.path}: ${key} must be a list`);
        continue;
      }
      const entries = into();
      if (key === 'allowedMcpServers') policy.allowedIn.push(f.path);
      for (const raw of list) {
        const entry = toEntry(raw, f.path);
        if (entry) entries.push(entry);
        else
          diagnostics.push(
            `${f.path}: ${key}: ${JSON.stringify(raw)} needs one of serverName, serverCommand, serverUrl`,
          );
      }
    }
  }
  return { policy, diagnostics };
}

function toEntry(raw: unknown, file: string): PolicyEntry | undefined {
  if (!isRecord(raw)) return undefined;
  const command = raw.serverCommand;
  if (typeof raw.serverName === 'string') return { serverName: raw.serverName, file };
  if (Array.isArray(command) && command.length > 0 && command.every((c) => typeof c === 'string'))
    return { serverCommand: command as string[], file };
  if (typeof raw.serverUrl === 'string') return { serverUrl: raw.serverUrl, file };
  return undefined;
}

const urlPattern = (pattern: string): RegExp => new RegExp(`^${starToSource(pattern)}$`);

function covers(entry: PolicyEntry, spec: McpServerSpec): boolean {
  if (entry.serverName !== undefined) return entry.serverName === spec.name;
  if (entry.serverCommand && spec.transport === 'stdio') {
    const line = [spec.command, ...spec.args];
    return (
      line.length === entry.serverCommand.length &&
      line.every((w, i) => w === entry.serverCommand![i])
    );
  }
  if (entry.serverUrl !== undefined && spec.transport === 'http')
    return urlPattern(entry.serverUrl).test(spec.url);
  return false;
}

/**
 * Why the policy keeps `spec` from starting, or undefined. The deny list wins; an allow list with
 * command (or URL) entries must cover a stdio (or remote) server by its command (or URL), as in
 * Claude Code, not by its name alone.
 */
export function blockedBy(policy: ServerPolicy, spec: McpServerSpec): string | undefined {
  const denied = policy.denied.find((e) => covers(e, spec));
  if (denied) return `denied by deniedMcpServers in ${denied.file}`;
  if (!policy.allowed) return undefined;
  const byForm = spec.transport === 'stdio' ? 'serverCommand' : 'serverUrl';
  const strict = policy.allowed.some((e) => e[byForm] !== undefined);
  const allowed = policy.allowed.some(
    (e) => covers(e, spec) && (!strict || e[byForm] !== undefined),
  );
  if (allowed) return undefined;
  return `not in allowedMcpServers of ${policy.allowedIn.join(', ')}`;
}

/**
 * Where MCP servers are configured (docs/tools.md#mcp-servers): settings `mcp_servers`, a trusted
 * workspace's `.mcp.json` and Claude Code's own `~/.claude.json`, all in Claude Code's format
 * `{ mcpServers: { name: { command, args, env } | { type: "http", url, headers } } }`, with `${VAR}`
 * and `${VAR:-default}` expanded.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { McpServerConfig, WorkbenchSettings } from '../../shared/types/index.ts';
import { expandAll, expandVars } from '../env/expand-vars.ts';
import { readTextNonBlocking } from '../fs/read-text-if-file.ts';
import { statIfAny } from '../fs/stat-if-any.ts';
import {
  parsedSettings,
  readClaudeSettingsFiles,
  type ReadSettingsFile,
} from '../user-hooks/claude-config.ts';
import { claudeConfigDir } from '../env/claude-config-dir.ts';
import { claudeJsonPath, readClaudeJsonMcp } from './claude-json.ts';
import { pluginServerFiles } from './claude-plugin-servers.ts';
import { blockedBy, readServerPolicy } from './claude-server-policy.ts';
import { rejectedMcpjsonServers } from './claude-settings.ts';

export const mcpServerConfigSchema = z.looseObject({
  // `streamable-http` is the MCP specification's name for `http`; Claude Code takes both.
  type: z.enum(['stdio', 'http', 'streamable-http']).optional(),
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  url: z.string().min(1).optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

export const mcpOverrideSchema = z.looseObject({
  enabled: z.boolean().optional(),
  read_only: z.boolean().optional(),
  disabled_tools: z.array(z.string()).optional(),
  timeout_ms: z.number().int().positive().optional(),
});

// Entries are checked one by one (toSpec), so one bad entry does not hide the others.
const mcpFileSchema = z.looseObject({ mcpServers: z.record(z.string(), z.unknown()) });

/** `workspace`: the workspace's `.mcp.json` (needs trust); `user`: the user's own files. */
export type McpSource = 'user' | 'workspace';

/** A server ready to start: its transport with every variable expanded. */
export type McpServerSpec = {
  name: string;
  source: McpSource;
  /** Where it is configured, as the panel names it (`settings`, `.mcp.json`, `~/.claude.json`…). */
  from: string;
  /** Why Claude Code's files switch it off here (an explicit switch in Settings still turns it on). */
  off?: string;
  /** Why Claude Code's server allow or deny lists keep it from starting (nothing turns it on). */
  blocked?: string;
  /** Stable identity of the configuration: a changed config is a new server. */
  key: string;
} & (
  | {
      transport: 'stdio';
      command: string;
      args: string[];
      env: Record<string, string>;
      cwd: string;
    }
  | { transport: 'http'; url: string; headers: Record<string, string> }
);

export const MCP_FILE = '.mcp.json';
/** Server names become part of tool names (`mcp__<server>__<tool>`). */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Whose servers: a workspace, with the settings and trust they are read under. */
export interface McpConfigWhere {
  workspace: string;
  /** $WORKBENCH_HOME (its settings.json is one of the Claude dialect's settings files). */
  home: string;
  settings: WorkbenchSettings;
  trusted: boolean;
  /** The Claude dialect's settings files as the run already read them (else they are read here). */
  claudeSettings?: readonly ReadSettingsFile[];
}

export interface McpConfigResult {
  servers: McpServerSpec[];
  diagnostics: string[];
}

/**
 * The servers of a workspace, lowest precedence first, a later one replacing an earlier one of the
 * same name: Claude Code's user scope (`~/.claude.json` `mcpServers`), settings `mcp_servers`, the
 * servers of enabled Claude Code plugins (`plugin:<plugin>:<server>`; a plugin only the workspace
 * enables needs trust), the workspace's `.mcp.json` when `trusted` (Claude Code's project scope),
 * and Claude Code's local scope (`~/.claude.json` `projects["<workspace>"].mcpServers`) — local
 * over project over user, as in Claude Code. One of its or the project's servers that Claude Code
 * switches off for the folder (`disabledMcpServers`), or a `.mcp.json` server it rejected
 * (`disabledMcpjsonServers`), is listed with `off`. Plugins and rejections come from the Claude
 * dialect's settings files, the ones its hooks are read from (`home` is $WORKBENCH_HOME); so do the
 * user's and the administrator's server allow and deny lists, which mark a server `blocked`.
 * Contract: never rejects; a broken file or entry is a diagnostic.
 */
export async function loadMcpConfig(o: McpConfigWhere): Promise<McpConfigResult> {
  const diagnostics: string[] = [];
  const byName = new Map<string, McpServerSpec>();
  const add = (
    source: McpSource,
    from: string,
    where: string,
    entries: Record<string, unknown>,
    opts: {
      off?: (name: string) => string | undefined;
      plugin?: string;
      vars?: Record<string, string>;
    } = {},
  ) => {
    for (const [name, raw] of Object.entries(entries)) {
      const config = mcpServerConfigSchema.safeParse(raw);
      const spec = config.success
        ? toSpec(name, source, from, config.data as McpServerConfig, o.workspace, opts)
        : entryProblem(raw);
      if (typeof spec === 'string') diagnostics.push(`${where}: mcp server "${name}": ${spec}`);
      else byName.set(spec.name, withOff(spec, opts.off?.(name)));
    }
  };
  const claudeDir = claudeConfigDir();
  const claudeFile = claudeJsonPath();
  const claude = await readClaudeJsonMcp(claudeFile, o.workspace);
  if (typeof claude === 'string') diagnostics.push(claude);
  const fromClaude = typeof claude === 'object' ? claude : undefined;
  const claudeSettings = parsedSettings(
    o.claudeSettings ?? (await readClaudeSettingsFiles(o.workspace, o.home, claudeDir)),
  );
  if (fromClaude) add('user', '~/.claude.json', claudeFile, fromClaude.user);
  add('user', 'settings', 'settings mcp_servers', o.settings.mcp_servers ?? {});
  const plugins = await pluginServerFiles(claudeSettings, o.workspace, claudeDir);
  diagnostics.push(...plugins.diagnostics);
  for (const p of plugins.files) {
    if (p.scope === 'workspace' && !o.trusted) {
      diagnostics.push(
        `${p.file} ignored: the workspace that enables plugin "${p.plugin}" is not trusted`,
      );
      continue;
    }
    add(p.scope, `plugin ${p.plugin}`, p.file, p.entries, { plugin: p.plugin, vars: p.vars });
  }
  const file = join(o.workspace, MCP_FILE);
  const read = await readMcpFile(file);
  if (read && !o.trusted) {
    diagnostics.push(`${file} ignored: the workspace is not trusted (run \`workbench trust DIR\`)`);
  } else if (typeof read === 'string') diagnostics.push(read);
  else if (read) {
    const rejected = rejectedMcpjsonServers(claudeSettings);
    for (const name of fromClaude?.rejected ?? []) rejected.set(name, claudeFile);
    add('workspace', MCP_FILE, file, read, {
      off: (name) => {
        const by = rejected.get(name);
        return by && `rejected in ${by} (disabledMcpjsonServers)`;
      },
    });
  }
  if (fromClaude) {
    add('user', '~/.claude.json, this folder', claudeFile, fromClaude.local);
    // Claude Code's /mcp switches its own servers and the project's, not the workbench settings'.
    for (const name of fromClaude.disabled) {
      const spec = byName.get(name);
      const why = `switched off for this folder in ${claudeFile} (disabledMcpServers)`;
      if (spec && spec.from !== 'settings') byName.set(name, withOff(spec, spec.off ?? why));
    }
  }
  const { policy, diagnostics: policyProblems } = readServerPolicy(claudeSettings);
  diagnostics.push(...policyProblems);
  const servers = [...byName.values()].map((spec) => {
    const blocked = blockedBy(policy, spec);
    return blocked ? { ...spec, blocked } : spec;
  });
  return { servers, diagnostics };
}

const withOff = (spec: McpServerSpec, off: string | undefined): McpServerSpec =>
  off ? { ...spec, off } : spec;

/** The `mcpServers` of a `.mcp.json` as written (entries unchecked); undefined when absent, a message when broken. */
export async function readMcpFile(
  file: string,
): Promise<Record<string, unknown> | string | undefined> {
  // Usually missing: one synchronous stat. Never a FIFO or device (its read would wait forever).
  let found;
  try {
    found = statIfAny(file);
  } catch {
    found = null; // e.g. EACCES: the read below says why
  }
  if (found === undefined) return undefined;
  if (found && !found.isFile()) return `${file}: not a regular file`;
  let text: string;
  try {
    text = await readTextNonBlocking(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return `${file}: cannot read: ${(err as Error).message}`;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return `${file}: invalid JSON: ${(err as Error).message}`;
  }
  const parsed = mcpFileSchema.safeParse(json);
  if (!parsed.success) return `${file}: expected { "mcpServers": { name: { command | url } } }`;
  return parsed.data.mcpServers;
}

/** Why an entry does not parse, in the words of the file format. */
function entryProblem(raw: unknown): string {
  const type = (raw as { type?: unknown } | null)?.type;
  if (type === 'sse') return '"type": "sse" is not supported; use "type": "http" (Streamable HTTP)';
  return 'expected { "command", "args", "env" } or { "type": "http", "url", "headers" }';
}

/**
 * One entry as a spec, or why it cannot start. A plugin's server is named `plugin:<plugin>:<name>`
 * and has the plugin's variables (`CLAUDE_PLUGIN_ROOT`…) to expand and in its environment.
 */
function toSpec(
  name: string,
  source: McpSource,
  from: string,
  config: McpServerConfig,
  workspace: string,
  o: { plugin?: string; vars?: Record<string, string> } = {},
): McpServerSpec | string {
  if (!NAME.test(name)) return 'a name must be letters, digits, _ and - (at most 64)';
  const fullName = o.plugin ? `plugin:${o.plugin}:${name}` : name;
  const vars = o.vars ? { ...process.env, ...o.vars } : process.env;
  const missing: string[] = [];
  const key = `${source}:${fullName}:${JSON.stringify(config)}`;
  const type = config.type ?? (config.url && !config.command ? 'http' : 'stdio');
  const base = { name: fullName, source, from, key };
  if (type === 'http' || type === 'streamable-http') {
    if (!config.url) return '"type": "http" needs a "url"';
    const url = expandVars(config.url, vars);
    const headers = expandAll(config.headers ?? {}, vars);
    missing.push(...url.missing, ...headers.missing);
    if (missing.length > 0) return unset(missing);
    return { ...base, transport: 'http', url: url.value, headers: headers.value };
  }
  if (!config.command) return 'needs a "command" (or "type": "http" and a "url")';
  const command = expandVars(config.command, vars);
  const args = expandAll(config.args ?? [], vars);
  const env = expandAll(config.env ?? {}, vars);
  missing.push(...command.missing, ...args.missing, ...env.missing);
  if (missing.length > 0) return unset(missing);
  return {
    ...base,
    transport: 'stdio',
    command: command.value,
    args: args.value,
    env: { ...o.vars, ...env.value },
    cwd: workspace,
  };
}

const unset = (names: string[]) =>
  `environment variable${names.length > 1 ? 's' : ''} ${[...new Set(names)].join(', ')} not set (and no \${VAR:-default})`;

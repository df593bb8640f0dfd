/**
 * Exactly what a workspace would run once trusted, for the trust prompt: each hook program, each
 * settings hook's command (by event and matcher) and each MCP server's command line. Read-only and
 * forgiving: a file that does not parse is shown as such, never thrown (docs/hooks.md, "Trust").
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readTextIfFile } from '../../fs/read-text-if-file.ts';
import { pluginServerFiles } from '../../mcp/claude-plugin-servers.ts';
import { mcpServerConfigSchema } from '../../mcp/config.ts';
import { enabledPlugins } from '../../user-hooks/claude-plugins.ts';

/** Most lines one item lists before saying how many more there are. */
const MAX_LINES = 40;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function capped(lines: string[]): string {
  if (lines.length <= MAX_LINES) return lines.join('\n');
  return [...lines.slice(0, MAX_LINES), `… (${lines.length - MAX_LINES} more)`].join('\n');
}

async function readJson(path: string): Promise<unknown> {
  try {
    // A FIFO or a folder is not read (the prompt would wait for a writer): it does not parse.
    const text = await readTextIfFile(path);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** The entries of a hooks or skills folder, disabled hooks marked. */
export async function folderDetail(dir: string): Promise<string> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => !n.startsWith('.'));
  return capped(
    names.sort().map((n) => (n.endsWith('.disable') ? `${n.slice(0, -8)} (switched off)` : n)),
  );
}

/** What one handler runs, as the trust prompt shows it; undefined for what is not a handler. */
function handlerLine(h: unknown): string | undefined {
  if (!isRecord(h)) return undefined;
  if (h.type === 'http') {
    if (typeof h.url !== 'string') return undefined;
    const vars = Array.isArray(h.allowedEnvVars)
      ? h.allowedEnvVars.filter((v) => typeof v === 'string')
      : [];
    return `POST ${h.url}${vars.length ? ` (sends ${vars.map((v) => `$${v}`).join(', ')})` : ''}`;
  }
  if (h.type === 'prompt')
    return typeof h.prompt === 'string' ? `asks the model: ${h.prompt}` : undefined;
  if (h.type === 'mcp_tool')
    return typeof h.server === 'string' && typeof h.tool === 'string'
      ? `calls MCP tool ${h.server} › ${h.tool}`
      : undefined;
  if (h.type === 'agent')
    return typeof h.prompt === 'string'
      ? `an agent reads the workspace and judges: ${h.prompt}`
      : undefined;
  return typeof h.command === 'string' ? h.command : undefined;
}

/**
 * `Event [matcher]: command` for every command hook of a `hooks` object (settings or a plugin's
 * hooks.json), `Event [matcher]: POST <url>` for every http one, `asks the model: …` for a prompt one
 * `an agent reads the workspace and judges: …` for an agent one, `calls MCP tool <server> › <tool>`
 * for an mcp_tool one.
 */
export function commandHookLines(hooks: unknown): string[] {
  const lines: string[] = [];
  for (const [event, groups] of Object.entries(isRecord(hooks) ? hooks : {})) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
      const matcher =
        typeof group.matcher === 'string' && group.matcher ? ` [${group.matcher}]` : '';
      for (const h of group.hooks) {
        const runs = handlerLine(h);
        if (runs !== undefined) lines.push(`${event}${matcher}: ${runs}`);
      }
    }
  }
  return lines;
}

/**
 * `name: what it starts or calls` for an MCP server entry, as written (variables not expanded: the
 * prompt must not show a secret from the environment).
 */
export function mcpServerLine(name: string, raw: unknown): string {
  const s = mcpServerConfigSchema.safeParse(raw);
  if (!s.success) return `${name}: (not a valid entry)`;
  return `${name}: ${s.data.url ?? [s.data.command, ...(s.data.args ?? [])].join(' ')}`;
}

/** Where a settings file's plugins are looked up: the workspace (project installs) and Claude's folder. */
export interface PluginLookup {
  workspace: string;
  claudeDir: string;
}

/**
 * What plugin `id` would bring once the workspace is trusted: its hooks' commands and its MCP
 * servers' command lines.
 */
async function pluginLines(id: string, where: PluginLookup): Promise<string[]> {
  const settings = [
    { scope: 'workspace' as const, precedence: 0, data: { enabledPlugins: { [id]: true } } },
  ];
  const [plugin] = enabledPlugins(settings, where.workspace, where.claudeDir);
  if (!plugin) return [`plugin ${id}: not installed, nothing of it runs`];
  const hooksFile = await readJson(join(plugin.root, 'hooks', 'hooks.json'));
  const hooks = commandHookLines(isRecord(hooksFile) ? hooksFile.hooks : undefined);
  const { files, diagnostics } = await pluginServerFiles(
    settings,
    where.workspace,
    where.claudeDir,
  );
  const servers = files.flatMap((f) =>
    Object.entries(f.entries).map(([name, raw]) => `MCP server ${mcpServerLine(name, raw)}`),
  );
  const runs = [...hooks, ...servers, ...diagnostics];
  return [
    `plugin ${id}, installed at ${plugin.root}:`,
    ...(runs.length ? runs.map((l) => `  ${l}`) : ['  (no hooks or MCP servers)']),
  ];
}

/**
 * `Event [matcher]: command` for every command hook of a Claude Code style settings file, its
 * permission allow rules, then each Claude Code plugin it switches on (`enabledPlugins`) with what
 * that plugin runs.
 */
export async function settingsHooksDetail(path: string, plugins: PluginLookup): Promise<string> {
  const data = await readJson(path);
  if (data === undefined) return '(does not parse as JSON: its hooks would not load)';
  if (!isRecord(data)) return '(no hooks)';
  const lines = commandHookLines(data.hooks);
  // Trusting makes the file's allow rules count: these calls then skip the approval prompt.
  const allow = isRecord(data.permissions) ? data.permissions.allow : undefined;
  for (const rule of Array.isArray(allow) ? allow : []) {
    if (typeof rule === 'string') lines.push(`permission allow (runs without asking): ${rule}`);
  }
  for (const [id, on] of Object.entries(isRecord(data.enabledPlugins) ? data.enabledPlugins : {})) {
    if (on === true) lines.push(...(await pluginLines(id, plugins)));
  }
  return lines.length ? capped(lines) : '(no hooks)';
}

/**
 * The MCP servers of the Claude Code plugins that are installed and enabled (docs/tools.md#mcp-servers):
 * a plugin's `.mcp.json` at its root (the servers at the top, or under `mcpServers`) and the
 * `mcpServers` of its `.claude-plugin/plugin.json` (inline, or paths of JSON files in the plugin).
 * Claude Code names them `plugin:<plugin>:<server>`, so their tools are
 * `mcp__plugin_<plugin>_<server>__<tool>`; `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` are
 * the plugin's folders.
 */
import { join, resolve } from 'node:path';
import { readTextIfFile } from '../fs/read-text-if-file.ts';
import { isInside } from '../tools/path-guard.ts';
import { pluginDataDir } from '../user-hooks/claude-config.ts';
import { enabledPlugins, type SettingsData } from '../user-hooks/claude-plugins.ts';
import { isRecord } from '../user-hooks/json-output.ts';

export interface PluginServerFile {
  /** The plugin's name (its id before `@marketplace`). */
  plugin: string;
  /** 'workspace' when only a workspace's settings enable the plugin: its servers need trust. */
  scope: 'user' | 'workspace';
  file: string;
  entries: Record<string, unknown>;
  /** `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA`, expanded in the entries and set for the server. */
  vars: Record<string, string>;
}

/** Contract: never rejects; a file that cannot be used is a diagnostic. */
export async function pluginServerFiles(
  settings: readonly SettingsData[],
  workspace: string,
  claudeDir: string,
): Promise<{ files: PluginServerFile[]; diagnostics: string[] }> {
  const files: PluginServerFile[] = [];
  const diagnostics: string[] = [];
  for (const p of enabledPlugins(settings, workspace, claudeDir)) {
    const plugin = p.id.split('@')[0] || p.id;
    const vars = { CLAUDE_PLUGIN_ROOT: p.root, CLAUDE_PLUGIN_DATA: pluginDataDir(claudeDir, p.id) };
    const add = (file: string, entries: Record<string, unknown>) =>
      files.push({ plugin, scope: p.scope, file, entries, vars });
    const addFile = async (path: string) => {
      const file = resolve(p.root, path);
      if (!isInside(file, p.root)) {
        diagnostics.push(`${p.root}: mcpServers file ${path} is outside the plugin`);
        return;
      }
      const json = await readJson(file);
      if (typeof json === 'string') diagnostics.push(json);
      else if (json) add(file, isRecord(json.mcpServers) ? json.mcpServers : json);
    };
    await addFile('.mcp.json');
    const manifestFile = join(p.root, '.claude-plugin', 'plugin.json');
    const manifest = await readJson(manifestFile);
    const declared = isRecord(manifest) ? manifest.mcpServers : undefined;
    // `plugin.json`'s `mcpServers`: the servers themselves, or the path of a file (or a list).
    if (isRecord(declared)) add(manifestFile, declared);
    for (const path of [declared].flat()) if (typeof path === 'string') await addFile(path);
  }
  return { files, diagnostics };
}

/** A JSON object file: undefined when absent, a message when it is not one. */
async function readJson(file: string): Promise<Record<string, unknown> | string | undefined> {
  const text = await readTextIfFile(file);
  if (text === undefined) return undefined;
  try {
    const json: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return isRecord(json) ? json : `${file}: expected a JSON object`;
  } catch (err) {
    return `${file}: invalid JSON: ${(err as Error).message}`;
  }
}

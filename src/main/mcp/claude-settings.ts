/**
 * What Claude Code's settings files say about MCP servers (docs/tools.md#mcp-servers): the files are
 * `~/.claude/settings.json` and the workspace's `.claude/settings.json` and
 * `.claude/settings.local.json`. `disabledMcpjsonServers` lists `.mcp.json` servers the user
 * rejected at Claude Code's prompt (it only ever switches a server off, so the workspace's files are
 * read even before it is trusted); `enabledPlugins` names the plugins whose servers start.
 */
import { join } from 'node:path';
import { readTextIfFile } from '../fs/read-text-if-file.ts';
import type { SettingsData } from '../user-hooks/claude-plugins.ts';
import { isRecord } from '../user-hooks/json-output.ts';

export interface ClaudeSettingsFile extends SettingsData {
  path: string;
}

/** The files that exist and parse, the most specific first (local, project, user). */
export async function readClaudeSettings(
  workspace: string,
  claudeDir: string,
): Promise<ClaudeSettingsFile[]> {
  const files: ClaudeSettingsFile[] = [];
  for (const [path, scope, precedence] of [
    [join(workspace, '.claude', 'settings.local.json'), 'workspace', 3],
    [join(workspace, '.claude', 'settings.json'), 'workspace', 2],
    [join(claudeDir, 'settings.json'), 'user', 1],
  ] as const) {
    const text = await readTextIfFile(path);
    if (text === undefined) continue;
    try {
      files.push({ path, scope, precedence, data: JSON.parse(text.replace(/^\uFEFF/, '')) });
    } catch {
      // The hooks listing reports a broken settings file.
    }
  }
  return files;
}

/** Rejected `.mcp.json` server name → the settings file that rejects it (the first that does). */
export function rejectedMcpjsonServers(files: readonly ClaudeSettingsFile[]): Map<string, string> {
  const rejected = new Map<string, string>();
  for (const file of files) {
    const names = isRecord(file.data) ? file.data.disabledMcpjsonServers : undefined;
    if (!Array.isArray(names)) continue;
    for (const name of names) {
      if (typeof name === 'string' && !rejected.has(name)) rejected.set(name, file.path);
    }
  }
  return rejected;
}

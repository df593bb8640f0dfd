/**
 * `.mcp.json` servers the user rejected in Claude Code: `disabledMcpjsonServers` in any of its
 * settings files (`~/.claude/settings.json`, the workspace's `.claude/settings.json` and
 * `.claude/settings.local.json`), where its approval prompt records a "no". Only ever switches a
 * server off, so the workspace's files are read even before it is trusted.
 */
import { join } from 'node:path';
import { readTextIfFile } from '../fs/read-text-if-file.ts';
import { claudeConfigDir } from '../user-hooks/claude-plugins.ts';
import { isRecord } from '../user-hooks/json-output.ts';

/** Rejected server name → the settings file that rejects it (the first that does). */
export async function rejectedInClaudeSettings(
  workspace: string,
  claudeDir: string = claudeConfigDir(),
): Promise<Map<string, string>> {
  const rejected = new Map<string, string>();
  for (const file of [
    join(workspace, '.claude', 'settings.local.json'),
    join(workspace, '.claude', 'settings.json'),
    join(claudeDir, 'settings.json'),
  ]) {
    const text = await readTextIfFile(file);
    if (text === undefined) continue;
    let data: unknown;
    try {
      data = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch {
      continue; // its hooks listing reports the broken file
    }
    const names = isRecord(data) ? data.disabledMcpjsonServers : undefined;
    if (!Array.isArray(names)) continue;
    for (const name of names) {
      if (typeof name === 'string' && !rejected.has(name)) rejected.set(name, file);
    }
  }
  return rejected;
}

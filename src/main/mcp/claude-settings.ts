/**
 * `.mcp.json` servers the user rejected in Claude Code: `disabledMcpjsonServers` in any of the Claude
 * dialect's settings files (docs/tools.md#mcp-servers), where its approval prompt records a "no". It
 * only ever switches a server off, so the workspace's files count even before it is trusted.
 */
import type { ReadSettingsFile } from '../user-hooks/claude-config.ts';
import { isRecord } from '../user-hooks/json-output.ts';

/** Rejected `.mcp.json` server name → the settings file that rejects it (the first that does). */
export function rejectedMcpjsonServers(files: readonly ReadSettingsFile[]): Map<string, string> {
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

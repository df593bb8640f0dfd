/** MCP servers as the settings panel shows them (docs/tools.md#mcp-servers). */

/** A server's connection state. */
export interface McpServerStatus {
  name: string;
  /** `workspace`: the workspace's `.mcp.json` (needs trust); `user`: the user's own files. */
  source: 'user' | 'workspace';
  transport: 'stdio' | 'http';
  status: 'connecting' | 'connected' | 'failed' | 'closed' | 'disabled';
  /** Why it failed, with the last lines of its stderr. */
  error?: string;
  /** Restarts after crashes since the last successful call. */
  restarts: number;
}

/** One tool of a server: its name as the model sees it and whether it is offered. */
export interface McpToolInfo {
  name: string;
  /** `mcp__<server>__<tool>`. */
  qualified: string;
  description: string;
  enabled: boolean;
}

/** A server with its switches and tools. */
export interface McpServerInfo extends McpServerStatus {
  /** Where it is configured: `settings`, `.mcp.json`, `~/.claude.json`, `~/.claude.json, this folder`. */
  from: string;
  /** Why Claude Code's files switch it off here, unless switched on in Settings. */
  off?: string;
  /** Why Claude Code's server allow or deny lists keep it from starting; it cannot be switched on. */
  blocked?: string;
  enabled: boolean;
  read_only: boolean;
  tools: McpToolInfo[];
}

/** What the panel lists: the servers and why some could not be configured. */
export interface McpListing {
  servers: McpServerInfo[];
  diagnostics: string[];
}

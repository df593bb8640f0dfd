/** MCP servers as the settings panel shows them (docs/tools.md#mcp-servers). */

/** A server's connection state. */
export interface McpServerStatus {
  name: string;
  /** `user`: settings `mcp_servers`; `workspace`: the workspace's `.mcp.json`. */
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
  enabled: boolean;
  read_only: boolean;
  tools: McpToolInfo[];
}

/** What the panel lists: the servers and why some could not be configured. */
export interface McpListing {
  servers: McpServerInfo[];
  diagnostics: string[];
}

/** `$WORKBENCH_HOME/settings.json`, written atomically. The API key is never stored here. */
import type { ApprovalMode } from './events.ts';

export interface ProviderSettings {
  preset: 'openai' | 'ollama' | 'lmstudio' | 'vllm' | 'llamacpp' | 'openrouter' | 'custom';
  base_url: string;
  model: string;
}

export interface HookOverride {
  enabled?: boolean;
  fail_mode?: 'open' | 'closed';
  timeout_ms?: number;
  /** Run this hook in the command sandbox (docs/hooks.md#sandboxing-a-hook). */
  sandbox?: boolean;
  /** An executable hook served by one long-lived process (docs/hooks.md#persistent-hooks). */
  persistent?: boolean;
}

/**
 * How `execute` runs commands (docs/tools.md#sandbox): `auto` sandboxes where the OS sandbox is
 * available, `required` refuses commands where it is not, `off` never sandboxes.
 */
export interface SandboxSettings {
  mode: 'auto' | 'required' | 'off';
  /** Whether sandboxed commands reach the network (default false). */
  network: boolean;
  /**
   * For one run, never stored: the Claude Code settings file whose `sandbox.failIfUnavailable`
   * made `mode` required (docs/security.md#claude-codes-sandbox-settings).
   */
  required_by?: string;
  /**
   * For one run, never stored: the domains Claude Code's `sandbox.network.allowedDomains` lets
   * sandboxed commands reach through the workbench's proxy while `network` is off.
   */
  allowed_domains?: string[];
  /**
   * For one run, never stored: the domains Claude Code's `sandbox.network.deniedDomains` and
   * `WebFetch(domain:…)` deny rules keep sandboxed commands from, whatever `allowed_domains` says.
   */
  denied_domains?: string[];
  /**
   * For one run, never stored: Claude Code's `sandbox.network.allowAllUnixSockets` lets sandboxed
   * commands connect to the host's Unix sockets, which the sandbox hides otherwise.
   */
  unix_sockets?: boolean;
  /**
   * For one run, never stored: Claude Code's `sandbox.excludedCommands`, commands that run outside
   * the sandbox (and so are approved as unsandboxed commands are), each with the file naming it.
   */
  excluded_commands?: Array<{ pattern: string; file: string }>;
  /**
   * For one run, never stored: the Claude Code settings file whose
   * `permissions.blockReadsOutsideWorkingDirectories` keeps commands' reads in the user folders
   * (`/home`, `/root`, …) to the working directories (docs/security.md#claude-codes-sandbox-settings).
   */
  reads_kept_by?: string;
}

/** One MCP server, in Claude Code's `.mcp.json` format (docs/tools.md#mcp-servers). */
export interface McpServerConfig {
  /** `stdio` (default when `command` is set) or `http` (Streamable HTTP; `streamable-http` too). */
  type?: 'stdio' | 'http' | 'streamable-http';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
}

/** Switches for one MCP server (user or workspace), keyed by its name. */
export interface McpServerOverride {
  enabled?: boolean;
  /** Its tools run without asking for approval. */
  read_only?: boolean;
  /** Tool names (as the server names them) not offered to the model. */
  disabled_tools?: string[];
  /** Deadline of one call (default 120,000). */
  timeout_ms?: number;
}

/** An HTTP tool (docs/tools.md#http-tools). */
export interface HttpToolSettings {
  name: string;
  description: string;
  parameters?: Record<string, unknown>;
  url: string;
  timeout_ms?: number;
  headers?: Record<string, string>;
}

export interface WorkbenchSettings {
  provider: ProviderSettings;
  approval_mode: ApprovalMode;
  theme: 'light' | 'dark' | 'system';
  max_iterations: number;
  /** Tool calls of one turn that run at once; the rest wait their turn (results stay in call order). */
  max_parallel_tools: number;
  /** How deep subagents may nest (docs/agents.md); agent.yaml `max_subagent_depth` wins. Default 2. */
  max_subagent_depth?: number;
  disableAllHooks: boolean;
  /** Per-hook overrides keyed by HookInfo.id (settings hooks toggled off, fail mode, timeout). */
  hook_overrides: Record<string, HookOverride>;
  tracing: { capture_content: boolean; otlp_endpoint?: string; otlp_headers?: Record<string, string> };
  recent_workspaces: string[];
  disabled_skills: string[];
  sandbox: SandboxSettings;
  /** Let file tools open a file that has other hard links (which may lie outside the workspace). */
  allow_hard_links: boolean;
  /** POST feed events to URLs, with retries (docs/events.md#webhooks). */
  webhooks?: WebhookSettings[];
  /** User MCP servers, as `mcpServers` of Claude Code's `.mcp.json`. */
  mcp_servers: Record<string, McpServerConfig>;
  mcp_overrides: Record<string, McpServerOverride>;
  http_tools: HttpToolSettings[];
}

/** One webhook: the feed event types it receives, where, and an optional HMAC secret. */
export interface WebhookSettings {
  on: string[];
  url: string;
  secret?: string;
}

export const DEFAULT_SETTINGS: WorkbenchSettings = {
  provider: { preset: 'openai', base_url: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
  approval_mode: 'ask',
  theme: 'system',
  max_iterations: 25,
  max_parallel_tools: 8,
  disableAllHooks: false,
  hook_overrides: {},
  tracing: { capture_content: false },
  recent_workspaces: [],
  disabled_skills: [],
  sandbox: { mode: 'auto', network: false },
  allow_hard_links: false,
  mcp_servers: {},
  mcp_overrides: {},
  http_tools: [],
};

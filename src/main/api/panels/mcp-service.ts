/**
 * The MCP servers panel (docs/tools.md#mcp-servers): the workspace's servers with their status and
 * tools, switching a server or one of its tools on and off, marking a server read-only (its tools
 * then run without approval), restarting a server. Switches live in settings `mcp_overrides`.
 */
import type { McpListing, McpServerOverride } from '../../../shared/types/index.ts';
import { WorkbenchError } from '../../errors.ts';
import { realDir } from '../../fs/real-dir.ts';
import type { McpManager } from '../../mcp/manager.ts';
import { resourceMentions } from '../../mcp/resource-mentions.ts';
import type { PanelDeps } from './panel-deps.ts';

export interface McpService {
  list(args: { workspace?: string }): Promise<McpListing>;
  /** Contract: changes only the fields given; the listing after the change is returned. */
  set(args: {
    workspace?: string;
    server: string;
    enabled?: boolean;
    read_only?: boolean;
    tool?: { name: string; enabled: boolean };
  }): Promise<McpListing>;
  /** Contract: rejects (not_found) for a server that is not running. */
  restart(args: { workspace?: string; server: string }): Promise<McpListing>;
  /** `server:uri` mentions of running servers' resources matching `query`, for the composer. */
  resourceMentions(args: { workspace?: string; query: string }): Promise<string[]>;
}

export function createMcpService(
  deps: PanelDeps & { mcp: McpManager; workspace: string },
): McpService {
  const folder = async (workspace: string | undefined) =>
    workspace ? realDir(workspace) : deps.workspace;
  const list = async (workspace: string | undefined): Promise<McpListing> => {
    const dir = await folder(workspace);
    return deps.mcp.list({
      workspace: dir,
      home: deps.home,
      settings: deps.settings.get(),
      trusted: deps.trust.isTrusted(dir),
    });
  };
  return {
    list: (a) => list(a.workspace),
    async set(a) {
      const current = deps.settings.get().mcp_overrides?.[a.server] ?? {};
      const next: McpServerOverride = { ...current };
      if (a.enabled !== undefined) next.enabled = a.enabled;
      if (a.read_only !== undefined) next.read_only = a.read_only;
      if (a.tool) {
        const off = new Set(current.disabled_tools ?? []);
        if (a.tool.enabled) off.delete(a.tool.name);
        else off.add(a.tool.name);
        next.disabled_tools = [...off].sort();
      }
      await deps.settings.update({ mcp_overrides: { [a.server]: next } });
      return list(a.workspace);
    },
    async restart(a) {
      if (!(await deps.mcp.restart(await folder(a.workspace), a.server))) {
        throw new WorkbenchError('not_found', `MCP server "${a.server}" is not running`);
      }
      return list(a.workspace);
    },
    async resourceMentions(a) {
      return resourceMentions(deps.mcp.connected(await folder(a.workspace)), a.query);
    },
  };
}

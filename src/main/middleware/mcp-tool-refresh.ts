/**
 * An MCP server's tools kept current within a run (docs/tools.md#mcp-servers): a server that says
 * its tools changed (MCP list_changed; it added some once you signed in) has them offered from the
 * run's next request on, and a tool it dropped is no longer offered, as Claude Code does.
 */
import type { ModelRequest } from '../llm/types.ts';
import type { RunContext } from '../pipeline/hook.ts';
import type { McpConnection } from '../mcp/connection.ts';
import { serverTools } from '../mcp/tools.ts';
import { profileOffers } from '../agents/profile.ts';

interface Tracked {
  conn: McpConnection;
  /** The server's listing the run's tools were made from (a new listing is a new array). */
  listed: readonly unknown[];
  names: Set<string>;
}

/** Registers the servers' tools in the run and returns what brings a request up to date with them. */
export function registerServerTools(
  ctx: RunContext,
  conns: readonly McpConnection[],
): (req: ModelRequest) => ModelRequest {
  const tracked: Tracked[] = conns.map((conn) => {
    const listed = conn.tools();
    const tools = serverTools(conn, ctx.settings);
    for (const tool of tools) ctx.tools.register(tool);
    return { conn, listed, names: new Set(tools.map((t) => t.name)) };
  });
  return (req) => {
    const added = new Set<string>();
    const removed = new Set<string>();
    for (const t of tracked) {
      if (t.conn.tools() === t.listed) continue;
      t.listed = t.conn.tools();
      const tools = serverTools(t.conn, ctx.settings);
      const now = new Set(tools.map((tool) => tool.name));
      for (const name of t.names) if (!now.has(name)) removed.add(name);
      for (const tool of tools) {
        if (!t.names.has(tool.name)) added.add(tool.name);
        ctx.tools.register(tool);
      }
      t.names = now;
    }
    for (const name of removed) ctx.tools.unregister(name);
    if (added.size === 0 && removed.size === 0) return req;
    // The agent's profile decides on a new tool as on the others (this hook may run before it).
    const offered = ctx.tools
      .schemas()
      .filter((s) => added.has(s.name) && profileOffers(ctx.profile, s.name));
    return { ...req, tools: [...req.tools.filter((s) => !removed.has(s.name)), ...offered] };
  };
}

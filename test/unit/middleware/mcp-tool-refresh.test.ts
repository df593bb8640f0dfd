/** An MCP server's tools kept current within a run: added, dropped, and the agent's profile obeyed. */
import { describe, expect, it } from 'vitest';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { RunContext } from '../../../src/main/pipeline/hook.ts';
import type { McpConnection } from '../../../src/main/mcp/connection.ts';
import { registerServerTools } from '../../../src/main/middleware/mcp-tool-refresh.ts';
import { ToolRegistry } from '../../../src/main/tools/registry.ts';
import { requestOf } from '../../helpers/model-request.ts';
import type { ModelRequest } from '../../../src/main/llm/types.ts';

const tool = (name: string): McpTool => ({ name, inputSchema: { type: 'object' } });

/** A server whose listing the test replaces, as a list_changed does. */
function server(listing: McpTool[]) {
  const conn = { spec: { name: 'demo' }, tools: () => listing } as unknown as McpConnection;
  return { conn, relist: (next: McpTool[]) => (listing = next) };
}

function run(profileTools?: string[]) {
  const ctx = {
    tools: new ToolRegistry(),
    settings: {},
    profile: { name: 'workbench', ...(profileTools ? { tools: profileTools } : {}) },
  } as unknown as RunContext;
  return ctx;
}

const withTools = (tools: ModelRequest['tools']): ModelRequest => ({ ...requestOf([]), tools });
const names = (req: { tools: { name: string }[] }) => req.tools.map((t) => t.name);

describe('registerServerTools', () => {
  it("offers a server's new tools and drops the ones it no longer lists, from the next request", () => {
    const s = server([tool('a'), tool('b')]);
    const ctx = run();
    const refresh = registerServerTools(ctx, [s.conn]);
    const first = withTools(ctx.tools.schemas());
    expect(names(refresh(first))).toEqual(['mcp__demo__a', 'mcp__demo__b']);
    s.relist([tool('b'), tool('c')]);
    const next = refresh(withTools(ctx.tools.schemas()));
    expect(names(next)).toEqual(['mcp__demo__b', 'mcp__demo__c']);
    expect(ctx.tools.get('mcp__demo__a')).toBeUndefined();
    expect(ctx.tools.get('mcp__demo__c')).toBeDefined();
    // Nothing changed since: the request is left as it is.
    const same = withTools([]);
    expect(refresh(same)).toBe(same);
  });

  it('offers a new tool only when the agent’s profile lets it have it', () => {
    const s = server([tool('a')]);
    const ctx = run(['mcp__demo__a', 'read_file']);
    const refresh = registerServerTools(ctx, [s.conn]);
    refresh(withTools([]));
    s.relist([tool('a'), tool('secret')]);
    expect(names(refresh(withTools([])))).toEqual([]);
  });
});

/**
 * MCP servers' resources for the model (docs/tools.md#mcp-servers), as Claude Code offers them:
 * `list_mcp_resources` (Claude Code's ListMcpResourcesTool) lists what the connected servers offer,
 * `read_mcp_resource` (ReadMcpResourceTool) reads one. Offered only in a run with a server that has
 * resources. Reading is context, not action: no approval, as for the workspace's read tools.
 */
import { z } from 'zod';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { WorkbenchSettings } from '../../shared/types/index.ts';
import { defineTool, ToolError, type Tool } from '../tools/types.ts';
import { isAbortError } from '../abort.ts';
import { errorMessage } from '../errors.ts';
import type { McpConnection } from './connection.ts';
import { MCP_CALL_TIMEOUT_MS } from './tools.ts';

/** The most resources one listing shows (over all servers); more are said to exist. */
export const MAX_LISTED_RESOURCES = 500;

const listParams = z.object({
  server: z.string().optional().describe('Only this server’s resources (default: every server’s)'),
});
const readParams = z.object({
  server: z.string().describe('The MCP server that has the resource'),
  uri: z.string().describe('The resource’s URI, as list_mcp_resources gives it'),
});

/** The two tools over the servers that offer resources; none when no server does. */
export function resourceTools(
  conns: readonly McpConnection[],
  settings: WorkbenchSettings,
): Tool[] {
  const withResources = conns.filter((c) => c.offersResources());
  if (withResources.length === 0) return [];
  const timeoutOf = (c: McpConnection) =>
    settings.mcp_overrides?.[c.spec.name]?.timeout_ms ?? MCP_CALL_TIMEOUT_MS;
  const serverNamed = (name: string) => {
    const conn = withResources.find((c) => c.spec.name === name);
    if (!conn)
      throw new ToolError(
        `no MCP server "${name}" with resources; these have some: ${withResources.map((c) => c.spec.name).join(', ')}`,
      );
    return conn;
  };
  const list = defineTool({
    name: 'list_mcp_resources',
    description:
      'List the resources (documents, records, files) the connected MCP servers offer. Returns a JSON object: resources [{server, uri, name, title, description, mimeType}], and errors of servers that could not list theirs.',
    parameters: listParams,
    effects: () => ({}),
    dialects: { claude: { name: 'ListMcpResourcesTool' } },
    boundedOutput: true,
    async execute({ server }, ctx) {
      const asked = server === undefined ? withResources : [serverNamed(server)];
      const resources: Record<string, unknown>[] = [];
      const errors: { server: string; error: string }[] = [];
      let more = false;
      for (const conn of asked) {
        const room = MAX_LISTED_RESOURCES - resources.length;
        if (room <= 0) {
          more = true;
          break;
        }
        try {
          const listed = await conn.listResources({
            signal: ctx.signal,
            timeoutMs: timeoutOf(conn),
            max: room,
          });
          more ||= listed.more;
          for (const r of listed.resources)
            resources.push({
              server: conn.spec.name,
              uri: r.uri,
              name: r.name,
              ...(r.title ? { title: r.title } : {}),
              ...(r.description ? { description: r.description } : {}),
              ...(r.mimeType ? { mimeType: r.mimeType } : {}),
            });
        } catch (err) {
          if (isAbortError(err) || ctx.signal.aborted) throw err;
          errors.push({ server: conn.spec.name, error: errorMessage(err) });
        }
      }
      return JSON.stringify({
        resources,
        ...(more ? { truncated: true } : {}),
        ...(errors.length > 0 ? { errors } : {}),
      });
    },
  });
  const read = defineTool({
    name: 'read_mcp_resource',
    description:
      'Read one resource of an MCP server (its URI from list_mcp_resources). Returns its text; binary contents are described, not included.',
    parameters: readParams,
    effects: () => ({}),
    dialects: { claude: { name: 'ReadMcpResourceTool' } },
    async execute({ server, uri }, ctx) {
      const conn = serverNamed(server);
      let result: ReadResourceResult;
      try {
        result = await conn.readResource(uri, { signal: ctx.signal, timeoutMs: timeoutOf(conn) });
      } catch (err) {
        if (isAbortError(err) || ctx.signal.aborted) throw err;
        throw new ToolError(`MCP server "${server}" could not read ${uri}: ${errorMessage(err)}`);
      }
      return contentsText(result);
    },
  });
  return [list, read];
}

/** A read resource as the model reads it: text as is, binary described; parts headed when several. */
export function contentsText(result: ReadResourceResult): string {
  const parts = result.contents.map((c) => {
    const text =
      'text' in c && typeof c.text === 'string'
        ? c.text
        : `[binary: ${c.mimeType ?? 'unknown type'}, ${'blob' in c && typeof c.blob === 'string' ? Buffer.byteLength(c.blob, 'base64') : 0} bytes]`;
    return { uri: c.uri, mimeType: c.mimeType, text };
  });
  if (parts.length === 1) return parts[0]!.text;
  return parts
    .map((p) => `--- ${p.uri}${p.mimeType ? ` (${p.mimeType})` : ''}\n${p.text}`)
    .join('\n');
}

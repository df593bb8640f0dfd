/**
 * An MCP server's tools as workbench tools (docs/tools.md#mcp-servers): named
 * `mcp__<server>__<tool>` as in Claude Code (so hook matchers like `mcp__.*` see them), their JSON
 * Schema sent to the model as is, results mapped to text, `isError` a failed call whose structured
 * content may name an error kind. Calls ask for approval like writes unless the server is read-only.
 */
import { z } from 'zod';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { defineTool, ToolError, type Tool } from '../tools/types.ts';
import { toolErrorFrom } from '../tools/error-kind.ts';
import { isAbortError } from '../abort.ts';
import { errorMessage } from '../errors.ts';
import type { McpConnection } from './connection.ts';
import type { WorkbenchSettings } from '../../shared/types/index.ts';

/** Default deadline of one MCP tool call. */
export const MCP_CALL_TIMEOUT_MS = 120_000;

/** Model tool names allow letters, digits, `_` and `-`, at most 64 characters. */
export function qualifiedName(server: string, tool: string): string {
  const clean = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, '_');
  return `mcp__${clean(server)}__${clean(tool)}`.slice(0, 64);
}

const argsSchema = z.record(z.string(), z.unknown());

export interface McpToolsOptions {
  readOnly: boolean;
  /** Tool names (the server's) not offered. */
  disabled: ReadonlySet<string>;
  timeoutMs?: number;
}

/** The connected server's enabled tools under its settings override (`mcp_overrides`). */
export function serverTools(conn: McpConnection, settings: WorkbenchSettings): Tool[] {
  const o = settings.mcp_overrides?.[conn.spec.name] ?? {};
  return mcpTools(conn, {
    readOnly: o.read_only === true,
    disabled: new Set(o.disabled_tools ?? []),
    timeoutMs: o.timeout_ms,
  });
}

/** The connected server's enabled tools. */
export function mcpTools(conn: McpConnection, o: McpToolsOptions): Tool[] {
  return conn
    .tools()
    .filter((t) => !o.disabled.has(t.name))
    .map((t) => mcpTool(conn, t, o));
}

function mcpTool(conn: McpConnection, t: McpTool, o: McpToolsOptions): Tool {
  const server = conn.spec.name;
  const timeoutMs = o.timeoutMs ?? MCP_CALL_TIMEOUT_MS;
  return defineTool({
    name: qualifiedName(server, t.name),
    description: t.description ?? t.title ?? `${t.name} (MCP server ${server})`,
    parameters: argsSchema,
    inputSchema: t.inputSchema,
    effects: () => (o.readOnly ? {} : { writes: [] }),
    preview: (args) => `MCP ${server} › ${t.name}\n${JSON.stringify(args, null, 2)}`,
    async execute(args, ctx) {
      let result: CallToolResult;
      try {
        result = await conn.callTool(t.name, args, {
          signal: ctx.signal,
          timeoutMs,
          elicit: ctx.elicit && ((ask) => ctx.elicit!({ ...ask, server })),
        });
      } catch (err) {
        if (isAbortError(err) || ctx.signal.aborted) throw err;
        const message = errorMessage(err);
        throw new ToolError(
          /timed out|timeout/i.test(message) ? `no answer within ${timeoutMs} ms` : message,
          'retryable',
        );
      }
      const text = resultText(result);
      if (result.isError)
        throw toolErrorFrom(text || 'the MCP tool reported an error', result.structuredContent);
      return text;
    },
  });
}

/** The result as the model reads it: text parts, other parts noted, structured content as JSON. */
export function resultText(result: CallToolResult): string {
  const parts = (result.content ?? []).map((c) => {
    switch (c.type) {
      case 'text':
        return c.text;
      case 'image':
      case 'audio':
        return `[${c.type}: ${c.mimeType}, ${Buffer.byteLength(c.data, 'base64')} bytes]`;
      case 'resource_link':
        return `[resource: ${c.uri}]`;
      case 'resource':
        return 'text' in c.resource ? String(c.resource.text) : `[resource: ${c.resource.uri}]`;
      default:
        return `[${(c as { type: string }).type}]`;
    }
  });
  const hasText = (result.content ?? []).some((c) => c.type === 'text');
  if (result.structuredContent && !hasText)
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  return parts.join('\n');
}

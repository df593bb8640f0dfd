/**
 * The external-tools middleware: registers the tools that come from outside the workbench for one
 * run — MCP servers' tools (settings, a trusted workspace's `.mcp.json`), kept current through the
 * run, and resources, and HTTP tools (agent.yaml, settings) — and records the servers' lifecycle
 * (connect, tools listed, stderr, crash, restart) in the run's trace (docs/tools.md).
 */
import type { AttributeValue } from '../../shared/types/index.ts';
import type { Hook, MiddlewareInfo, RunContext } from '../pipeline/hook.ts';
import type { McpManager } from '../mcp/manager.ts';
import { resourceTools } from '../mcp/resource-tools.ts';
import { registerServerTools } from './mcp-tool-refresh.ts';
import type { ModelRequest } from '../llm/types.ts';
import { loadMcpConfig } from '../mcp/config.ts';
import type { ReadSettingsFile } from '../user-hooks/claude-config.ts';
import type { McpConnection, McpLifecycleEvent } from '../mcp/connection.ts';
import { createHttpTool, httpToolConfigSchema, type HttpToolConfig } from '../tools/http-tool.ts';

export interface ExternalToolsOptions {
  /** The workbench's MCP servers; absent = no MCP tools. */
  mcp?: McpManager;
  /** The Claude dialect's settings files as the run read them (their plugins and server switches). */
  claudeSettings?: readonly ReadSettingsFile[];
}

/** Creates the hook. Contract: a server that failed or a broken HTTP tool entry is a diagnostic, never a failed run. */
export function createExternalToolsHook(opts: ExternalToolsOptions = {}): Hook {
  let unsubscribe: (() => void) | undefined;
  let refresh: ((req: ModelRequest) => ModelRequest) | undefined;
  return {
    name: 'external-tools',
    source: 'builtin',
    async beforeAgent(ctx) {
      registerHttpTools(ctx);
      if (!opts.mcp) return;
      const where = {
        workspace: ctx.workspace.root,
        home: ctx.home,
        settings: ctx.settings,
        trusted: ctx.trusted,
        claudeSettings: opts.claudeSettings,
      };
      const config = await loadMcpConfig(where);
      // A run without MCP servers gets no span for them.
      const span =
        config.servers.length > 0 ? ctx.trace?.startSpan('mcp servers', 'internal') : undefined;
      // Until this run's servers are known, every server's events count (they are starting for it).
      const mine: { names?: ReadonlySet<string>; ended?: boolean } = {};
      unsubscribe = opts.mcp.subscribe((e) => {
        if (mine.names && !mine.names.has(e.server)) return;
        if (span && !mine.ended) span.addEvent(`mcp.${e.kind}`, attributes(e));
        else ctx.trace?.recordEvent(`mcp.${e.kind}`, attributes(e));
      });
      const { connections, diagnostics } = await opts.mcp.servers({ ...where, config });
      mine.names = new Set(connections.map((c) => c.spec.name));
      for (const message of diagnostics) diagnostic(ctx, message);
      const connected: McpConnection[] = [];
      for (const conn of connections) {
        const status = conn.status();
        if (status.status !== 'connected') {
          diagnostic(
            ctx,
            `MCP server "${status.name}" ${status.status}: ${status.error ?? ''}`.trim(),
          );
          continue;
        }
        connected.push(conn);
      }
      refresh = registerServerTools(ctx, connected);
      // The servers' resources, through two tools of the workbench's own (a name taken is kept).
      for (const tool of resourceTools(connected, ctx.settings))
        if (!ctx.tools.get(tool.name)) ctx.tools.register(tool);
      span?.set('workbench.mcp.servers', connections.length).end();
      mine.ended = true;
    },
    async modifyRequest(_ctx, req) {
      return refresh ? refresh(req) : req;
    },
    async afterAgent() {
      unsubscribe?.();
    },
  };
}

function attributes(e: McpLifecycleEvent): Record<string, AttributeValue> {
  return {
    'workbench.mcp.server': e.server,
    ...(e.message !== undefined ? { message: e.message } : {}),
    ...(e.tools !== undefined ? { 'workbench.mcp.tools': e.tools } : {}),
  };
}

function diagnostic(ctx: RunContext, message: string): void {
  ctx.emit({ event: 'error', data: { message, code: 'diagnostic' } });
  ctx.trace?.recordEvent('tool_diagnostic', { message });
}

/** HTTP tools of agent.yaml (already validated) and settings (validated here). */
function registerHttpTools(ctx: RunContext): void {
  const fromSettings: HttpToolConfig[] = [];
  for (const [i, entry] of (ctx.settings.http_tools ?? []).entries()) {
    const parsed = httpToolConfigSchema.safeParse(entry);
    if (parsed.success) fromSettings.push(parsed.data);
    else
      diagnostic(ctx, `settings http_tools[${i}]: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  }
  for (const config of [...fromSettings, ...(ctx.profile.http_tools ?? [])]) {
    // A built-in (or an earlier HTTP tool) keeps its name: an HTTP tool never replaces it.
    if (ctx.tools.get(config.name)) {
      diagnostic(ctx, `http tool "${config.name}" ignored: a tool with that name exists`);
      continue;
    }
    ctx.tools.register(createHttpTool(config));
  }
}

/** The middleware as the hooks panel lists it. */
export const externalToolsInfo: MiddlewareInfo = {
  name: 'external-tools',
  description: 'Tools from MCP servers (.mcp.json, settings) and HTTP tools (agent.yaml, settings)',
  phases: ['before_agent', 'modify_request', 'after_agent'],
};

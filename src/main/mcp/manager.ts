/**
 * The workbench's MCP servers (docs/tools.md#mcp-servers): one connection per configured server,
 * shared by every run of its workspace, started on first use, replaced when its configuration
 * changes, stopped when switched off and when the workbench closes.
 */
import type {
  McpServerInfo,
  McpServerOverride,
  WorkbenchSettings,
} from '../../shared/types/index.ts';
import {
  createMcpConnection,
  type McpConnection,
  type McpConnectionOptions,
  type McpLifecycleEvent,
} from './connection.ts';
import {
  loadMcpConfig,
  type McpConfigResult,
  type McpConfigWhere,
  type McpServerSpec,
} from './config.ts';
import { qualifiedName } from './tools.ts';
import { workspaceWorkingDirs } from '../middleware/claude-working-dirs.ts';

export interface McpManager {
  /**
   * The connected or failed servers of a workspace, started as needed and waited for.
   * Contract: an untrusted workspace's `.mcp.json` is never read; a disabled server is stopped.
   */
  servers(o: McpConfigWhere & { config?: McpConfigResult }): Promise<{
    connections: McpConnection[];
    diagnostics: string[];
  }>;
  /** The panel's view of a workspace's servers (starting them as `servers` does). */
  list(o: McpConfigWhere): Promise<{
    servers: McpServerInfo[];
    diagnostics: string[];
  }>;
  /** A workspace's servers already connected, without starting any (the composer's `/` list). */
  connected(workspace: string): McpConnection[];
  /** The servers of a workspace started for its runs, connected or not (their programs are guarded). */
  started(workspace: string): McpServerSpec[];
  restart(workspace: string, name: string): Promise<boolean>;
  /** Stops the servers a workspace's own `.mcp.json` started (its trust was revoked). */
  stopWorkspaceServers(workspace: string): Promise<void>;
  /** Lifecycle events of every server (the run's trace subscribes). Returns an unsubscribe. */
  subscribe(listener: (e: McpLifecycleEvent) => void): () => void;
  close(): Promise<void>;
}

/** The override of a server (settings `mcp_overrides`). */
export const overrideOf = (settings: WorkbenchSettings, name: string): McpServerOverride =>
  settings.mcp_overrides?.[name] ?? {};

/**
 * Whether a server runs: never when an allow or deny list blocks it; else its switch in Settings,
 * else on unless Claude Code's files switch it off.
 */
const isOn = (settings: WorkbenchSettings, spec: McpServerSpec): boolean =>
  spec.blocked === undefined && (overrideOf(settings, spec.name).enabled ?? spec.off === undefined);

export function createMcpManager(opts: Omit<McpConnectionOptions, 'onEvent'> = {}): McpManager {
  /** `<workspace>\0<source>:<name>` → connection. */
  const live = new Map<string, McpConnection>();
  /** Connection id → the roots it was told, joined. */
  const rootsOf = new Map<string, string>();
  const listeners = new Set<(e: McpLifecycleEvent) => void>();
  const onEvent = (e: McpLifecycleEvent) => {
    for (const l of listeners) l(e);
  };
  const stop = (id: string, conn: McpConnection) => {
    live.delete(id);
    rootsOf.delete(id);
    return conn.close();
  };
  const slot = (workspace: string, s: McpServerSpec) => `${workspace}\0${s.source}:${s.name}`;

  /**
   * What a workspace's servers are told they work in (MCP roots): the workspace and the folders
   * Claude Code's `additionalDirectories` add to it, as Claude Code tells its working directories.
   */
  async function rootsFor(o: McpConfigWhere): Promise<string[]> {
    const { dirs } = await workspaceWorkingDirs({ ...o, workbenchHome: o.home });
    return [o.workspace, ...dirs];
  }

  async function servers(o: McpConfigWhere & { config?: McpConfigResult }) {
    const { servers: specs, diagnostics } = o.config ?? (await loadMcpConfig(o));
    // Most runs have no server: their start reads no folder for roots.
    const roots = specs.length > 0 ? await rootsFor(o) : [];
    const rootsKey = roots.join('\0');
    const wanted = new Set<string>();
    const connections: McpConnection[] = [];
    for (const spec of specs) {
      const id = slot(o.workspace, spec);
      const current = live.get(id);
      if (!isOn(o.settings, spec)) {
        if (current) await stop(id, current);
        continue;
      }
      wanted.add(id);
      // Other roots (the settings' folders changed) start the server again with the new ones.
      if (current && current.spec.key === spec.key && rootsOf.get(id) === rootsKey) {
        connections.push(current);
        continue;
      }
      if (current) await current.close();
      const conn = createMcpConnection(spec, { ...opts, onEvent, roots });
      rootsOf.set(id, rootsKey);
      live.set(id, conn);
      connections.push(conn);
    }
    // Servers removed from this workspace's configuration are stopped.
    for (const [id, conn] of live) {
      if (id.startsWith(`${o.workspace}\0`) && !wanted.has(id)) await stop(id, conn);
    }
    await Promise.all(connections.map((c) => c.ready()));
    return { connections, diagnostics, specs };
  }

  return {
    servers: (o) =>
      servers(o).then(({ connections, diagnostics }) => ({ connections, diagnostics })),
    async list(o) {
      const { connections, diagnostics, specs } = await servers(o);
      const infos = specs.map((spec): McpServerInfo => {
        const override = overrideOf(o.settings, spec.name);
        const conn = connections.find((c) => c.spec.name === spec.name);
        const disabled = new Set(override.disabled_tools ?? []);
        const status = conn?.status() ?? {
          name: spec.name,
          source: spec.source,
          transport: spec.transport,
          status: 'disabled' as const,
          restarts: 0,
        };
        return {
          ...status,
          from: spec.from,
          ...(spec.off ? { off: spec.off } : {}),
          ...(spec.blocked ? { blocked: spec.blocked } : {}),
          enabled: isOn(o.settings, spec),
          read_only: override.read_only === true,
          tools: (conn?.tools() ?? []).map((t) => ({
            name: t.name,
            qualified: qualifiedName(spec.name, t.name),
            description: t.description ?? '',
            enabled: !disabled.has(t.name),
          })),
        };
      });
      return { servers: infos, diagnostics };
    },
    connected: (workspace) =>
      [...live]
        .filter(([id, c]) => id.startsWith(`${workspace}\0`) && c.status().status === 'connected')
        .map(([, c]) => c),
    started: (workspace) =>
      [...live].filter(([id]) => id.startsWith(`${workspace}\0`)).map(([, c]) => c.spec),
    async restart(workspace, name) {
      const conn = [...live.entries()].find(
        ([id, c]) => id.startsWith(`${workspace}\0`) && c.spec.name === name,
      )?.[1];
      if (!conn) return false;
      await conn.restart();
      return true;
    },
    async stopWorkspaceServers(workspace) {
      const own = [...live].filter(
        ([id, c]) => id.startsWith(`${workspace}\0`) && c.spec.source === 'workspace',
      );
      await Promise.allSettled(own.map(([id, c]) => stop(id, c)));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      const all = [...live.values()];
      live.clear();
      await Promise.allSettled(all.map((c) => c.close()));
    },
  };
}

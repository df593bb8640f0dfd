/** One MCP connection: why a server failed, bounded restarts, `${VAR}` expansion of the configuration. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMcpConnection, type McpLifecycleEvent } from '../../../src/main/mcp/connection.ts';
import { loadMcpConfig } from '../../../src/main/mcp/config.ts';
import { DEFAULT_SETTINGS } from '../../../src/shared/types/index.ts';
import { DEMO_MCP_SERVER } from '../../helpers/mcp-http-server.ts';

const STALLING_MCP_SERVER = join(
  import.meta.dirname,
  '../../fixtures/mcp/stalling-lists-server.mjs',
);

const stdio = (args: string[]) =>
  ({
    name: 'demo',
    source: 'user',
    from: 'settings',
    key: 'k',
    transport: 'stdio',
    command: process.execPath,
    args,
    env: {},
    cwd: process.cwd(),
  }) as const;
const signal = new AbortController().signal;

describe('MCP connection', () => {
  it('a server that cannot start is failed, and the reason carries its stderr', async () => {
    const conn = createMcpConnection(
      stdio(['-e', "process.stderr.write('missing config file\\n'); process.exit(1)"]),
    );
    await conn.ready();
    const status = conn.status();
    expect(status.status).toBe('failed');
    expect(status.error).toMatch(/^cannot start: /);
    expect(status.error).toContain('missing config file');
    await expect(conn.callTool('echo', {}, { signal, timeoutMs: 1000 })).rejects.toThrow(
      /not connected/,
    );
    await conn.close();
  });

  it('a call that changed the tools of a server that then never lists them returns anyway, the old list kept', async () => {
    const conn = createMcpConnection(stdio([STALLING_MCP_SERVER]), { connectTimeoutMs: 60_000 });
    await conn.ready();
    // Waiting for the listing's own deadline (a minute here) would time the test out.
    const result = await conn.callTool('change', {}, { signal, timeoutMs: 60_000 });
    expect(result.content).toEqual([{ type: 'text', text: 'changed' }]);
    expect(conn.tools().map((t) => t.name)).toEqual(['change']);
    await conn.close();
  }, 20_000);

  it('restarts a crashed server at most maxRestarts times in a row', async () => {
    const events: McpLifecycleEvent[] = [];
    const conn = createMcpConnection(stdio([DEMO_MCP_SERVER]), {
      maxRestarts: 1,
      restartDelayMs: () => 10,
      onEvent: (e) => events.push(e),
    });
    await conn.ready();
    await expect(conn.callTool('crash', {}, { signal, timeoutMs: 5000 })).rejects.toThrow();
    await conn.ready();
    expect(conn.status()).toMatchObject({ status: 'connected', restarts: 1 });
    await expect(conn.callTool('crash', {}, { signal, timeoutMs: 5000 })).rejects.toThrow();
    await conn.ready();
    await new Promise((r) => setTimeout(r, 50));
    expect(conn.status().status).toBe('failed');
    expect(conn.status().error).toMatch(/not restarted again/);
    expect(events.filter((e) => e.kind === 'crashed')).toHaveLength(2);
    expect(events.filter((e) => e.kind === 'restarting')).toHaveLength(1);
    await conn.close();
  });
});

describe('MCP configuration', () => {
  it('expands ${VAR} and ${VAR:-default}; an unset variable without default keeps the server out', async () => {
    process.env.MCP_CFG_TEST = 'value';
    const { servers, diagnostics } = await loadMcpConfig({
      workspace: '/nonexistent-workspace',
      home: '/nonexistent-home',
      trusted: true,
      settings: {
        ...DEFAULT_SETTINGS,
        mcp_servers: {
          a: {
            command: 'run-${MCP_CFG_TEST}',
            args: ['--x=${MCP_CFG_UNSET:-fallback}'],
            env: { T: '${MCP_CFG_TEST}' },
          },
          b: { type: 'http', url: 'https://example.com/${MCP_CFG_UNSET}' },
          'bad name': { command: 'x' },
        },
      },
    });
    delete process.env.MCP_CFG_TEST;
    expect(servers).toEqual([
      expect.objectContaining({
        name: 'a',
        transport: 'stdio',
        command: 'run-value',
        args: ['--x=fallback'],
        env: { T: 'value' },
      }),
    ]);
    expect(diagnostics).toEqual([
      expect.stringContaining('mcp server "b": environment variable MCP_CFG_UNSET not set'),
      expect.stringContaining('mcp server "bad name": a name must be'),
    ]);
  });

  it('a bad .mcp.json entry is reported and the others still start', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'wb-mcp-cfg-'));
    writeFileSync(
      join(ws, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          old: { type: 'sse', url: 'http://x/sse' },
          ok: { command: 'srv' },
          junk: null,
        },
      }),
    );
    const { servers, diagnostics } = await loadMcpConfig({
      workspace: ws,
      home: ws,
      trusted: true,
      settings: DEFAULT_SETTINGS,
    });
    rmSync(ws, { recursive: true, force: true });
    expect(servers.map((s) => [s.name, s.source])).toEqual([['ok', 'workspace']]);
    expect(diagnostics).toEqual([
      expect.stringContaining('"old": "type": "sse" is not supported; use "type": "http"'),
      expect.stringContaining('"junk": expected { "command"'),
    ]);
  });

  it("Claude Code's /mcp switch-off (disabledMcpServers) applies to its servers, not to the workbench settings' own", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-mcp-claude-'));
    const saved = process.env.CLAUDE_CONFIG_DIR;
    process.env.CLAUDE_CONFIG_DIR = dir;
    writeFileSync(
      join(dir, '.claude.json'),
      JSON.stringify({
        mcpServers: { theirs: { type: 'streamable-http', url: 'https://mcp.example/mcp' } },
        projects: { [dir]: { disabledMcpServers: ['theirs', 'mine'] } },
      }),
    );
    try {
      const { servers } = await loadMcpConfig({
        workspace: dir,
        home: dir,
        trusted: false,
        settings: { ...DEFAULT_SETTINGS, mcp_servers: { mine: { command: 'srv' } } },
      });
      expect(servers.map((sv) => [sv.name, sv.from, sv.transport, sv.off ?? 'on'])).toEqual([
        [
          'theirs',
          '~/.claude.json',
          'http',
          `switched off for this folder in ${join(dir, '.claude.json')} (disabledMcpServers)`,
        ],
        ['mine', 'settings', 'stdio', 'on'],
      ]);
    } finally {
      if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
      else process.env.CLAUDE_CONFIG_DIR = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a plugin only the workspace's settings enable starts its servers once the workspace is trusted, as a workspace server", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-mcp-plugin-'));
    const saved = process.env.CLAUDE_CONFIG_DIR;
    const claudeDir = join(dir, 'claude');
    const ws = join(dir, 'ws');
    const root = join(dir, 'plugin');
    process.env.CLAUDE_CONFIG_DIR = claudeDir;
    mkdirSync(join(claudeDir, 'plugins'), { recursive: true });
    mkdirSync(join(ws, '.claude'), { recursive: true });
    mkdirSync(root);
    writeFileSync(
      join(root, '.mcp.json'),
      JSON.stringify({ mcpServers: { srv: { command: 'x' } } }),
    );
    writeFileSync(
      join(claudeDir, 'plugins', 'installed_plugins.json'),
      JSON.stringify({ plugins: { 'team@corp': [{ scope: 'user', installPath: root }] } }),
    );
    writeFileSync(
      join(ws, '.claude', 'settings.json'),
      JSON.stringify({ enabledPlugins: { 'team@corp': true } }),
    );
    try {
      const untrusted = await loadMcpConfig({
        workspace: ws,
        home: dir,
        trusted: false,
        settings: DEFAULT_SETTINGS,
      });
      expect(untrusted.servers).toEqual([]);
      expect(untrusted.diagnostics).toEqual([
        `${join(root, '.mcp.json')} ignored: the workspace that enables plugin "team" is not trusted`,
      ]);
      const trusted = await loadMcpConfig({
        workspace: ws,
        home: dir,
        trusted: true,
        settings: DEFAULT_SETTINGS,
      });
      expect(trusted.servers.map((sv) => [sv.name, sv.source])).toEqual([
        ['plugin:team:srv', 'workspace'],
      ]);
    } finally {
      if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
      else process.env.CLAUDE_CONFIG_DIR = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

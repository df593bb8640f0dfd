/**
 * The MCP servers of the open workspace (docs/tools.md#mcp-servers): status (connected, or failed
 * and why), their tools, on/off per server and per tool, read-only (no approval), restart. Changes
 * are saved at once and apply to the next run.
 */
import { useCallback, useEffect, useState } from 'react';
import type { McpListing, McpServerInfo } from '../../../shared/types/index.ts';
import { call } from '../../ipc/client.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { errorMessage } from '../../../shared/error-message.ts';

const STATUS: Record<McpServerInfo['status'], string> = {
  connecting: 'Connecting…',
  connected: 'Connected',
  failed: 'Failed',
  closed: 'Stopped',
  disabled: 'Off',
};

export function McpServers() {
  const workspace = useWorkbenchStore((s) => s.workspace.path);
  const [listing, setListing] = useState<McpListing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const act = useCallback(async (work: () => Promise<McpListing>) => {
    setBusy(true);
    try {
      setListing(await work());
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }, []);

  useEffect(() => {
    void act(() => call('mcp.list', workspace ? { workspace } : {}));
  }, [act, workspace]);

  const where = workspace ? { workspace } : {};
  const set = (
    server: string,
    change: { enabled?: boolean; read_only?: boolean; tool?: { name: string; enabled: boolean } },
  ) => act(() => call('mcp.set', { ...where, server, ...change }));

  return (
    <section className="mcp-servers" data-testid="mcp-servers" aria-label="MCP servers">
      <h2>MCP servers</h2>
      <p className="hint">
        From settings <code>mcp_servers</code>, the workspace&apos;s <code>.mcp.json</code> (only
        when the workspace is trusted) and Claude Code&apos;s <code>~/.claude.json</code>. Changes
        apply to the next run.
      </p>
      {error && (
        <p className="warning" role="alert">
          {error}
        </p>
      )}
      {listing?.diagnostics.map((d) => (
        <p key={d} className="warning" data-testid="mcp-diagnostic">
          {d}
        </p>
      ))}
      {listing && listing.servers.length === 0 && (
        <p className="muted">No MCP servers configured.</p>
      )}
      {listing?.servers.map((s) => (
        <div
          key={`${s.source}:${s.name}`}
          className="mcp-server"
          data-testid={`mcp-server-${s.name}`}
        >
          <div className="inline">
            <strong>{s.name}</strong>
            <span className="muted">
              {s.transport} · {s.from}
            </span>
            <span
              className={s.status === 'failed' ? 'warning' : undefined}
              data-testid="mcp-status"
            >
              {STATUS[s.status]}
              {s.restarts > 0 ? ` (restarted ${s.restarts}×)` : ''}
            </span>
          </div>
          {s.error && <pre className="warning mcp-error">{s.error}</pre>}
          {s.blocked && (
            <p className="warning" data-testid="mcp-blocked">
              Blocked: {s.blocked}
            </p>
          )}
          {s.off && !s.enabled && !s.blocked && (
            <p className="muted" data-testid="mcp-off">
              Off: {s.off}
            </p>
          )}
          <div className="inline">
            <label>
              <input
                type="checkbox"
                checked={s.enabled}
                disabled={busy || s.blocked !== undefined}
                onChange={(e) => void set(s.name, { enabled: e.target.checked })}
              />
              On
            </label>
            <label title="Its tools run without asking for approval">
              <input
                type="checkbox"
                checked={s.read_only}
                disabled={busy}
                onChange={(e) => void set(s.name, { read_only: e.target.checked })}
              />
              Read-only (no approval)
            </label>
            {s.enabled && (
              <button
                type="button"
                disabled={busy}
                onClick={() => void act(() => call('mcp.restart', { ...where, server: s.name }))}
              >
                Restart
              </button>
            )}
          </div>
          {s.tools.length > 0 && (
            <ul className="mcp-tools">
              {s.tools.map((t) => (
                <li key={t.name}>
                  <label title={t.description}>
                    <input
                      type="checkbox"
                      checked={t.enabled}
                      disabled={busy}
                      onChange={(e) =>
                        void set(s.name, { tool: { name: t.name, enabled: e.target.checked } })
                      }
                    />
                    <code>{t.qualified}</code>
                    {t.description && <span className="muted"> — {t.description}</span>}
                  </label>
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
    </section>
  );
}

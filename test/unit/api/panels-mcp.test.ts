/** The MCP channels through the handler table: validated arguments, switches saved in settings. */
import { afterEach, describe, expect, it } from 'vitest';
import { createHandlers, dispatch } from '../../../src/main/api/handlers.ts';
import { panelSandbox, type PanelSandbox } from './panels-helpers.ts';

let sb: PanelSandbox;
afterEach(async () => sb?.cleanup());

const secrets = {
  get: () => undefined,
  set: async () => undefined,
  storage: () => 'memory' as const,
};

describe('mcp channels', () => {
  it('refuses a malformed server name or extra fields before any handler runs', async () => {
    sb = await panelSandbox();
    const h = createHandlers({ workbench: sb.wb, mode: 'serve', version: '1', secrets });
    for (const args of [{ server: '../x' }, { server: 'ok', command: 'rm -rf /' }]) {
      expect(await dispatch(h, 'mcp.set', args as never)).toMatchObject({
        ok: false,
        error: { code: 'invalid_args' },
      });
    }
    expect(await dispatch(h, 'mcp.restart', { server: 'absent' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('saves per-server and per-tool switches in settings mcp_overrides', async () => {
    sb = await panelSandbox();
    const h = createHandlers({ workbench: sb.wb, mode: 'serve', version: '1', secrets });
    await dispatch(h, 'mcp.set', { server: 'github', read_only: true });
    await dispatch(h, 'mcp.set', {
      server: 'github',
      tool: { name: 'delete_repo', enabled: false },
    });
    const r = await dispatch(h, 'mcp.set', { server: 'github', enabled: false });
    expect(r).toMatchObject({ ok: true, value: { servers: [] } });
    expect(sb.wb.settings.get().mcp_overrides).toEqual({
      github: { read_only: true, disabled_tools: ['delete_repo'], enabled: false },
    });
  });
});

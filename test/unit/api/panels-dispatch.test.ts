import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

describe('panel channels through the handler table', () => {
  it('answers a stale memory save with a conflict result, not an error', async () => {
    sb = await panelSandbox();
    const h = createHandlers({ workbench: sb.wb, mode: 'serve', version: '1', secrets });
    const read = await dispatch(h, 'memory.read', { scope: 'workspace' });
    expect(read).toMatchObject({
      ok: true,
      value: { exists: false, path: join(sb.ws, 'AGENTS.md') },
    });
    writeFileSync(join(sb.ws, 'AGENTS.md'), 'theirs');
    const r = await dispatch(h, 'memory.write', {
      scope: 'workspace',
      content: 'mine',
      baseVersion: '',
    });
    expect(r).toMatchObject({
      ok: true,
      value: { status: 'conflict', document: { content: 'theirs' } },
    });
  });

  it('maps guard refusals and bad names onto error codes', async () => {
    sb = await panelSandbox();
    const h = createHandlers({ workbench: sb.wb, mode: 'serve', version: '1', secrets });
    expect(await dispatch(h, 'skills.delete', { path: '/etc/passwd' })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(
      await dispatch(h, 'hooks.create', { scope: 'user', name: '../x', template: 'guardrail' }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect(await dispatch(h, 'hooks.test', { id: 'executable:user:missing' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    const list = await dispatch(h, 'hooks.list', {});
    expect(list).toMatchObject({ ok: true, value: { workspace: sb.ws, disableAllHooks: false } });
  });
});

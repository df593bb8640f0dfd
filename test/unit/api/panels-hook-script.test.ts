/** Editing a hook's script from the panel: only listed executable hooks, mode kept, conflicts refused. */
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { panelSandbox, type PanelSandbox } from './panels-helpers.ts';

let sb: PanelSandbox | undefined;
afterEach(async () => {
  await sb?.cleanup();
  sb = undefined;
});

const SCRIPT =
  '#!/bin/sh\nif [ "$1" = hook ]; then echo after_tool_call; exit 0; fi\ncat >/dev/null\n';

async function withHook() {
  sb = await panelSandbox();
  const dir = join(sb.home, 'hooks');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'audit');
  writeFileSync(path, SCRIPT);
  chmodSync(path, 0o755);
  return { sb, path, id: 'executable:user:audit' };
}

describe('hook scripts', () => {
  it('reads and saves the script of a listed hook, keeping it executable', async () => {
    const { sb, path, id } = await withHook();
    const script = await sb.wb.hooks!.readScript({ workspace: sb.ws, id });
    expect(script).toMatchObject({ path, content: SCRIPT });
    const edited = `${SCRIPT}echo '{}'\n`;
    const r = await sb.wb.hooks!.writeScript({
      workspace: sb.ws,
      id,
      content: edited,
      baseVersion: script.version,
    });
    expect(r.status).toBe('saved');
    expect(readFileSync(path, 'utf8')).toBe(edited);
    expect(statSync(path).mode & 0o777).toBe(0o755);
  });

  it('refuses a save over a script that changed on disk and returns the disk', async () => {
    const { sb, path, id } = await withHook();
    const script = await sb.wb.hooks!.readScript({ workspace: sb.ws, id });
    writeFileSync(path, `${SCRIPT}# changed elsewhere\n`);
    const r = await sb.wb.hooks!.writeScript({
      workspace: sb.ws,
      id,
      content: 'mine',
      baseVersion: script.version,
    });
    expect(r.status).toBe('conflict');
    expect(r.script.content).toContain('changed elsewhere');
    expect(readFileSync(path, 'utf8')).toContain('changed elsewhere');
  });

  it('refuses ids the panel does not list and hooks without a script file', async () => {
    const { sb } = await withHook();
    await expect(
      sb.wb.hooks!.writeScript({
        workspace: sb.ws,
        id: 'executable:user:../../etc/passwd',
        content: 'x',
        baseVersion: '',
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      sb.wb.hooks!.readScript({ workspace: sb.ws, id: 'builtin:tracing' }),
    ).rejects.toMatchObject({
      code: 'invalid_args',
    });
  });
});

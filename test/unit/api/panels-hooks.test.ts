import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTrustStore } from '../../../src/main/user-hooks/index.ts';
import { panelSandbox, type PanelSandbox } from './panels-helpers.ts';

let sb: PanelSandbox;
afterEach(async () => sb?.cleanup());

const hook = (dir: string, name: string, event: string, answer = '') => {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(
    path,
    `#!/bin/sh\nif [ "$1" = hook ]; then echo ${event}; exit 0; fi\ncat >/dev/null\necho "to stderr" >&2\nprintf '%s' '${answer}'\n`,
  );
  chmodSync(path, 0o755);
  return path;
};

describe('hooks service', () => {
  it('lists built-ins and user hooks in pipeline order', async () => {
    sb = await panelSandbox();
    hook(join(sb.home, 'hooks'), 'audit', 'after_tool_call');
    writeFileSync(
      join(sb.home, 'settings.json'),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
      }),
    );
    const { hooks, trusted, templates } = await sb.wb.hooks!.list({ workspace: sb.ws });
    const ids = hooks.map((h) => h.id);
    expect(ids.slice(0, 4)).toEqual(['builtin:tracing', 'builtin:todolist', 'builtin:subagents', 'builtin:user-hooks']);
    expect(ids[4]).toBe('executable:user:audit');
    expect(ids[5]).toMatch(/^claude:.*settings\.json#PreToolUse\/0\/0$/);
    expect(ids.at(-1)).toBe('builtin:summarization');
    expect(hooks[4]).toMatchObject({
      dialect: 'executable',
      events: ['after_tool_call'],
      enabled: true,
      trusted: true,
    });
    expect(hooks[5]).toMatchObject({ dialect: 'claude', matcher: 'Bash' });
    expect(trusted).toBe(false);
    expect(templates.map((t) => t.id)).toEqual([
      'audit-logger',
      'guardrail',
      'follow-up',
      'persistent-shell',
      'persistent-python',
      'persistent-node',
    ]);
  });

  it('shows workspace hooks as untrusted until the workspace is trusted', async () => {
    sb = await panelSandbox();
    hook(join(sb.ws, '.workbench', 'hooks'), 'guard', 'before_tool_call');
    let h = (await sb.wb.hooks!.list({ workspace: sb.ws })).hooks.find(
      (x) => x.id === 'executable:workspace:guard',
    )!;
    expect(h).toMatchObject({ trusted: false, problem: expect.stringContaining('not trusted') });
    await expect(
      sb.wb.hooks!.test({ workspace: sb.ws, id: h.id, event: 'before_tool_call' }),
    ).rejects.toMatchObject({ code: 'forbidden' });
    await createTrustStore(sb.home).trust(sb.ws);
    h = (await sb.wb.hooks!.list({ workspace: sb.ws })).hooks.find(
      (x) => x.id === 'executable:workspace:guard',
    )!;
    expect(h).toMatchObject({ trusted: true, events: ['before_tool_call'] });
  });

  it('turns a seed hook off by renaming it, and other hooks through hook_overrides', async () => {
    sb = await panelSandbox();
    const path = hook(join(sb.home, 'hooks'), 'audit', 'after_tool_call');
    expect(
      await sb.wb.hooks!.setEnabled({ workspace: sb.ws, id: 'executable:user:audit', enabled: false }),
    ).toMatchObject({ enabled: false, path: `${path}.disable` });
    expect(existsSync(path)).toBe(false);
    expect(
      await sb.wb.hooks!.setEnabled({ workspace: sb.ws, id: 'executable:user:audit', enabled: true }),
    ).toMatchObject({ enabled: true, path });
    await sb.wb.hooks!.setEnabled({ workspace: sb.ws, id: 'builtin:memory', enabled: false });
    expect(sb.wb.settings.get().hook_overrides['builtin:memory']).toEqual({ enabled: false });
    await expect(
      sb.wb.hooks!.setEnabled({ workspace: sb.ws, id: 'builtin:approval', enabled: false }),
    ).rejects.toMatchObject({ code: 'invalid_args' });
    await expect(
      sb.wb.hooks!.setEnabled({ workspace: sb.ws, id: 'executable:user:nope', enabled: false }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('sets fail mode and timeout, and disables all user hooks', async () => {
    sb = await panelSandbox();
    hook(join(sb.home, 'hooks'), 'guard', 'before_tool_call');
    const h = await sb.wb.hooks!.update({
      workspace: sb.ws,
      id: 'executable:user:guard',
      failMode: 'closed',
      timeoutMs: 5000,
    });
    expect(h).toMatchObject({ fail_mode: 'closed', timeout_ms: 5000 });
    expect(sb.wb.settings.get().hook_overrides['executable:user:guard']).toEqual({
      fail_mode: 'closed',
      timeout_ms: 5000,
    });
    expect(
      (await sb.wb.hooks!.disableAll({ workspace: sb.ws, disabled: true })).disableAllHooks,
    ).toBe(true);
    expect(sb.wb.settings.get().disableAllHooks).toBe(true);
  });

  it('tests a hook with the sample or an edited payload and records the run', async () => {
    sb = await panelSandbox();
    hook(join(sb.home, 'hooks'), 'guard', 'before_tool_call', '{"blocked": true, "reason": "no"}');
    const sample = await sb.wb.hooks!.sample({ workspace: sb.ws, id: 'executable:user:guard' });
    expect(sample.event).toBe('before_tool_call');
    expect(JSON.parse(sample.payload)).toMatchObject({ tool_name: 'bash', cwd: sb.ws });
    const r = await sb.wb.hooks!.test({
      workspace: sb.ws,
      id: 'executable:user:guard',
      payload: sample.payload.replace('"ls"', '"rm -rf /"'),
    });
    expect(r).toMatchObject({
      exitCode: 0,
      stdout: '{"blocked": true, "reason": "no"}',
      stderr: 'to stderr\n',
      decision: 'block',
      readAs: 'block — no',
    });
    expect(JSON.parse(r.payload).tool_input.command).toBe('rm -rf /');
    const runs = sb.wb.hooks!.runs({ hookId: 'executable:user:guard' });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ decision: 'block', exit_code: 0 });
    await expect(
      sb.wb.hooks!.test({ workspace: sb.ws, id: 'executable:user:guard', payload: '[1]' }),
    ).rejects.toMatchObject({ code: 'invalid_args' });
    await expect(
      sb.wb.hooks!.test({ workspace: sb.ws, id: 'builtin:memory' }),
    ).rejects.toMatchObject({ code: 'invalid_args' });
  });

  it('creates hooks from templates, executable, and refuses to overwrite', async () => {
    sb = await panelSandbox();
    const audit = await sb.wb.hooks!.create({
      workspace: sb.ws,
      scope: 'user',
      name: 'audit',
      template: 'audit-logger',
    });
    expect(audit).toMatchObject({
      id: 'executable:user:audit',
      events: ['after_tool_call'],
      enabled: true,
    });
    expect(statSync(audit.path!).mode & 0o777).toBe(0o755);
    expect(readFileSync(audit.path!, 'utf8')).toContain(join(sb.home, 'audit.log'));
    const r = await sb.wb.hooks!.test({ workspace: sb.ws, id: audit.id });
    expect(r.readAs).toBe('none');
    expect(readFileSync(join(sb.home, 'audit.log'), 'utf8')).toContain('"tool_name":"bash"');
    const guard = await sb.wb.hooks!.create({
      workspace: sb.ws,
      scope: 'workspace',
      name: 'guard',
      template: 'guardrail',
    });
    expect(guard).toMatchObject({
      id: 'executable:workspace:guard',
      trusted: false,
      path: join(sb.ws, '.workbench', 'hooks', 'guard'),
    });
    await createTrustStore(sb.home).trust(sb.ws);
    const blocked = await sb.wb.hooks!.test({
      workspace: sb.ws,
      id: guard.id,
      payload: JSON.stringify({
        event: 'before_tool_call',
        tool_name: 'bash',
        tool_input: { command: 'sudo rm -rf /' },
      }),
    });
    expect(blocked.readAs).toBe("block — Security policy: 'rm -rf' is not allowed");
    await sb.wb.hooks!.create({
      workspace: sb.ws,
      scope: 'workspace',
      name: 'follow',
      template: 'follow-up',
    });
    writeFileSync(join(sb.ws, 'foo.txt'), '');
    expect(
      (await sb.wb.hooks!.test({ workspace: sb.ws, id: 'executable:workspace:follow' })).decision,
    ).toBe('follow_up');
    await expect(
      sb.wb.hooks!.create({
        workspace: sb.ws,
        scope: 'user',
        name: 'audit',
        template: 'follow-up',
      }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });
});

/** The persistent hook templates (shell, Python, Node) answer their calls over one `serve` process. */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTypeAnswer } from '../../../src/main/user-hooks/executable-discovery.ts';
import {
  callHookServer,
  endHookServers,
  hookServerPids,
} from '../../../src/main/user-hooks/hook-server.ts';
import { hookTemplate, type HookTemplateId } from '../../../src/main/user-hooks/templates.ts';
import { runHookProcess } from '../../../src/main/user-hooks/runner.ts';
import { sandbox, type Sandbox } from './helpers.ts';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(async () => {
  await endHookServers();
  sb.cleanup();
});

function install(id: HookTemplateId): string {
  const path = join(sb.wsHooks, id);
  writeFileSync(path, hookTemplate(id).render({ auditLog: join(sb.ws, 'audit.log') }));
  chmodSync(path, 0o755);
  return path;
}

const payload = (command: string) =>
  JSON.stringify({
    event: 'before_tool_call',
    cwd: '/ws',
    tool_name: 'bash',
    tool_input: { command },
  });
const call = (path: string, command: string) =>
  callHookServer(
    {
      command: path,
      cwd: sb.ws,
      env: { PATH: process.env.PATH },
      stdin: payload(command),
      timeoutMs: 10_000,
    },
    'before_tool_call',
  );

describe('persistent hook templates', () => {
  it.each(['persistent-python', 'persistent-node'] as const)(
    '%s declares itself persistent and blocks rm -rf on its server',
    async (id) => {
      const path = install(id);
      const type = await runHookProcess({
        command: path,
        args: ['hook'],
        cwd: sb.ws,
        env: { PATH: process.env.PATH },
        timeoutMs: 10_000,
      });
      expect(readTypeAnswer(type.stdout)).toEqual({ event: 'before_tool_call', persistent: true });
      expect(JSON.parse((await call(path, 'ls')).stdout)).toEqual({ blocked: false });
      const pids = hookServerPids();
      expect(JSON.parse((await call(path, 'rm -rf /')).stdout)).toMatchObject({ blocked: true });
      expect(hookServerPids()).toEqual(pids);
      // `run` still answers one call, for `workbench hooks test` and replay.
      const once = await runHookProcess({
        command: path,
        args: ['run'],
        cwd: sb.ws,
        env: { PATH: process.env.PATH },
        stdin: payload('sudo x'),
        timeoutMs: 10_000,
      });
      expect(JSON.parse(once.stdout)).toMatchObject({ blocked: true });
    },
  );

  it('the shell template logs every call and answers no modification', async () => {
    const path = install('persistent-shell');
    expect((await call(path, 'echo one')).stdout).toBe('');
    expect((await call(path, 'echo two')).stdout).toBe('');
    const log = readFileSync(join(sb.ws, 'audit.log'), 'utf8').trim().split('\n');
    expect(log).toHaveLength(2);
    expect(log[1]).toContain('echo two');
  });
});

/** `workbench hooks replay` and the health column of `workbench hooks list`, through the real CLI. */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../helpers/fake-openai-server.ts';
import { runCli, sandbox } from '../../helpers/run-cli.ts';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function userHook(home: string, name: string, event: string, body: string): void {
  const dir = join(home, 'hooks');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, name),
    `#!/bin/sh\nif [ "$1" = hook ]; then echo ${event}; exit 0; fi\n${body}\n`,
  );
  chmodSync(join(dir, name), 0o755);
}

describe('workbench hooks replay', () => {
  it("shows which recorded calls a new guard would have blocked, and list shows each hook's health", async () => {
    const env = await sandbox();
    mkdirSync(join(env.workspace, 'build'));
    fake = await startFakeOpenAi({
      script: [
        {
          toolCalls: [
            { name: 'execute', args: { command: 'rm -rf build' } },
            { name: 'execute', args: { command: 'ls' } },
          ],
        },
        { text: 'cleaned' },
      ],
    });
    userHook(env.home, 'broken', 'after_tool_call', 'cat >/dev/null; exit 4');
    const run = await runCli(['run', '--auto', 'clean up'], { ...env, baseURL: fake.baseURL });
    expect(run.code).toBe(0);

    userHook(
      env.home,
      'no-rm',
      'before_tool_call',
      `case "$(cat)" in *'"dry_run":true'*'rm -rf'*|*'rm -rf'*'"dry_run":true'*) echo '{"blocked":true,"reason":"no rm -rf"}';; *) echo '{}';; esac`,
    );
    const r = await runCli(['hooks', 'replay', 'no-rm', '--last', '1'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'dry run of no-rm (executable:user:no-rm) over 2 recorded calls; nothing was applied',
    );
    expect(r.stdout).toMatch(/^block .*execute +\{"command":"rm -rf build"\}.*no rm -rf$/m);
    expect(r.stdout).toMatch(/^allow .*execute +\{"command":"ls"\}/m);
    expect(r.stdout).toContain('would block 1, change 0, allow 1; failed on 0');

    const list = await runCli(['hooks', 'list'], env);
    expect(list.stdout).toMatch(/broken .* error,error /);
    expect(list.stdout).toContain('last error: exited with 4');
    // The replayed guard never ran live: no health.
    expect(list.stdout).toMatch(/no-rm .* - /);

    expect(
      (await runCli(['hooks', 'replay', 'no-rm', '--thread', 'x', '--last', '2'], env)).code,
    ).toBe(2);
  });
});

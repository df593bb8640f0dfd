/** `workbench run` prints what Claude hooks told the user and which input a hook changed. */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../helpers/fake-openai-server.ts';
import { runCli, sandbox } from '../../helpers/run-cli.ts';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

it('the CLI shows a hook message and the input a hook changed', async () => {
  const { home, workspace } = await sandbox();
  const hooks = join(workspace, '.claude', 'hooks');
  mkdirSync(hooks, { recursive: true });
  const answer = {
    systemMessage: 'commands run dry today',
    hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'echo dry' } },
  };
  writeFileSync(
    join(hooks, 'dry-run.sh'),
    `#!/bin/sh\ncat >/dev/null\necho '${JSON.stringify(answer)}'\n`,
  );
  chmodSync(join(hooks, 'dry-run.sh'), 0o755);
  writeFileSync(
    join(workspace, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ command: `bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/dry-run.sh` }],
          },
        ],
      },
    }),
  );
  fake = await startFakeOpenAi({
    script: [{ toolCalls: [{ name: 'execute', args: { command: 'echo wet' } }] }, { text: 'ok' }],
  });
  const r = await runCli(['run', '--auto', '--trust', 'go'], {
    home,
    workspace,
    baseURL: fake.baseURL,
  });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain('! hook dry-run.sh: commands run dry today');
  expect(r.stderr).toContain('(input changed by hook dry-run.sh: {"command":"echo dry"})');
});

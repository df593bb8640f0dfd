import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, e2eEnv } from './fixtures.ts';

// Two executable user hooks in $WORKBENCH_HOME/hooks: user hooks need no workspace trust.
const hooks = {
  'block-words': ['user_message_send', '*forbidden*', 'No forbidden words, please'],
  'guard-secrets': ['before_tool_call', '*secret.txt*', 'secret.txt is off limits'],
};

test.beforeAll(() => {
  const dir = join(e2eEnv('WB_HOME'), 'hooks');
  mkdirSync(dir, { recursive: true });
  for (const [name, [event, pattern, reason]] of Object.entries(hooks)) {
    const file = join(dir, name);
    writeFileSync(
      file,
      `#!/bin/sh\nif [ "$1" = hook ]; then echo ${event}; exit 0; fi\npayload=$(cat)\ncase "$payload" in ${pattern}) echo '{"blocked": true, "reason": "${reason}"}';; esac\n`,
    );
    chmodSync(file, 0o755);
  }
});

test.afterAll(() => {
  for (const name of Object.keys(hooks)) rmSync(join(e2eEnv('WB_HOME'), 'hooks', name), { force: true });
});

test('a message blocked by a hook shows the reason', async ({ fake, chat }) => {
  await fake.script([{ text: 'should never be asked' }]);
  await chat.sendNew('say the forbidden word');
  await expect(chat.page.getByTestId('notice-blocked')).toContainText('No forbidden words, please');
  await chat.waitIdle();
  expect((await fake.requests()).filter((r) => r.path.includes('chat/completions'))).toHaveLength(0);
});

test('a tool call blocked by a hook shows the reason on its card', async ({ fake, chat }) => {
  await fake.script([{ toolCalls: [{ name: 'read_file', args: { path: 'secret.txt' } }] }, { text: 'Blocked, fine.' }]);
  await chat.sendNew('read the secret file');
  await expect(chat.toolCard('read_file')).toHaveAttribute('data-status', 'blocked');
  await expect(chat.toolCard('read_file').getByTestId('tool-error')).toContainText('secret.txt is off limits');
  await expect(chat.assistant.last()).toContainText('Blocked, fine.');
});

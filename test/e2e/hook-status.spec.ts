import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, e2eEnv } from './fixtures.ts';

// An executable user hook that takes 2 s over calls reading slow.txt.
const HOOK = 'slow-audit';
const hookFile = () => join(e2eEnv('WB_HOME'), 'hooks', HOOK);

test.beforeAll(() => {
  mkdirSync(join(e2eEnv('WB_HOME'), 'hooks'), { recursive: true });
  writeFileSync(
    hookFile(),
    '#!/bin/sh\nif [ "$1" = hook ]; then echo before_tool_call; exit 0; fi\ncase "$(cat)" in *slow.txt*) sleep 2;; esac\n',
  );
  chmodSync(hookFile(), 0o755);
});

test.afterAll(() => rmSync(hookFile(), { force: true }));

test('the chat says which hook the agent waits on while a slow one runs, and clears it after', async ({
  fake,
  chat,
}) => {
  await fake.script([
    { toolCalls: [{ name: 'read_file', args: { path: 'slow.txt' } }] },
    { text: 'Read it.' },
  ]);
  await chat.sendNew('read slow.txt');
  const status = chat.page.getByTestId('hook-status');
  await expect(status).toContainText(`Running hook ${HOOK}`);
  await expect(status).toContainText('before_tool_call');
  await expect(chat.assistant.last()).toContainText('Read it.');
  await expect(status).toHaveCount(0);
});

import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, e2eEnv } from './fixtures.ts';

test('approve once: the write shows exactly what is written, then runs', async ({ fake, chat }) => {
  await fake.script([{ toolCalls: [{ name: 'write_file', args: { path: 'approved.txt', content: 'approved content' } }] }, { text: 'Written.' }]);
  await chat.sendNew('Write a file');
  await expect(chat.approval).toBeVisible();
  await expect(chat.page.getByTestId('approval-preview')).toContainText('approved.txt');
  await expect(chat.page.getByTestId('approval-preview')).toContainText('approved content');
  await expect(chat.toolCard('write_file')).toHaveAttribute('data-status', 'awaiting_approval');
  await chat.page.getByTestId('approve-once').click();
  await expect(chat.toolCard('write_file')).toHaveAttribute('data-status', 'done');
  await expect(chat.approval).toHaveCount(0);
  await expect(chat.assistant.last()).toContainText('Written.');
  expect(readFileSync(join(e2eEnv('WB_WORKSPACE'), 'approved.txt'), 'utf8')).toBe('approved content');
});

test('deny: nothing is written and the card says denied', async ({ fake, chat }) => {
  await fake.script([{ toolCalls: [{ name: 'write_file', args: { path: 'denied.txt', content: 'nope' } }] }, { text: 'Understood.' }]);
  await chat.sendNew('Write another file');
  await expect(chat.approval).toBeVisible();
  await chat.page.getByTestId('approve-deny').click();
  await expect(chat.toolCard('write_file')).toHaveAttribute('data-status', 'denied');
  await expect(chat.toolCard('write_file').getByTestId('tool-error')).toContainText('denied');
  await expect(chat.assistant.last()).toContainText('Understood.');
  expect(existsSync(join(e2eEnv('WB_WORKSPACE'), 'denied.txt'))).toBe(false);
});

test('cancel mid-run with Esc stops the stream', async ({ fake, chat }) => {
  await fake.script([{ text: 'This answer streams very slowly so that it can be cancelled halfway through. '.repeat(4), chunkSize: 2, delayMs: 60 }]);
  await chat.sendNew('Stream slowly');
  await expect(chat.page.getByTestId('message-streaming')).toContainText('This answer');
  await chat.page.keyboard.press('Escape');
  await expect(chat.page.getByTestId('notice-cancelled')).toBeVisible();
  await chat.waitIdle();
  await expect(chat.page.getByTestId('cancel-button')).toHaveCount(0);
});

test('cancel with the Stop button while waiting for approval', async ({ fake, chat }) => {
  await fake.script([{ toolCalls: [{ name: 'execute', args: { command: 'echo hi' } }] }, { text: 'never' }]);
  await chat.sendNew('Run a command');
  await expect(chat.page.getByTestId('approval-preview')).toContainText('echo hi');
  await chat.page.getByTestId('cancel-button').click();
  await chat.waitIdle();
  await expect(chat.approval).toHaveCount(0);
  await expect(chat.toolCard('execute')).not.toHaveAttribute('data-status', 'done');
});

test('a pending approval survives a page reload', async ({ fake, chat, app }) => {
  await fake.script([{ toolCalls: [{ name: 'write_file', args: { path: 'after-reload.txt', content: 'still asked' } }] }, { text: 'Done after reload.' }]);
  await chat.sendNew('Write after reload');
  await expect(chat.approval).toBeVisible();
  await app.reload();
  await expect(chat.approval).toBeVisible();
  await expect(chat.page.getByTestId('approval-preview')).toContainText('after-reload.txt');
  await chat.page.getByTestId('approve-thread').click();
  await expect(chat.assistant.last()).toContainText('Done after reload.');
  expect(readFileSync(join(e2eEnv('WB_WORKSPACE'), 'after-reload.txt'), 'utf8')).toBe('still asked');
});

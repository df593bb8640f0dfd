import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { panelSandbox, type PanelSandbox } from './panels-helpers.ts';

let sb: PanelSandbox;
afterEach(async () => sb?.cleanup());

describe('memory service', () => {
  it('reads a missing AGENTS.md as empty and creates it on save', async () => {
    sb = await panelSandbox();
    const doc = await sb.wb.memory!.read({ scope: 'workspace', workspace: sb.ws });
    expect(doc).toMatchObject({
      path: join(sb.ws, 'AGENTS.md'),
      content: '',
      version: '',
      exists: false,
    });
    const r = await sb.wb.memory!.write({
      scope: 'workspace',
      workspace: sb.ws,
      content: '# Rules\n',
      baseVersion: doc.version,
    });
    expect(r.status).toBe('saved');
    expect(readFileSync(join(sb.ws, 'AGENTS.md'), 'utf8')).toBe('# Rules\n');
    const user = await sb.wb.memory!.write({
      scope: 'user',
      workspace: sb.ws,
      content: 'be brief',
      baseVersion: '',
    });
    expect(user.document.path).toBe(join(sb.home, 'AGENTS.md'));
    expect(existsSync(join(sb.home, 'AGENTS.md'))).toBe(true);
  });

  it('refuses to overwrite a file changed on disk and answers with theirs', async () => {
    sb = await panelSandbox();
    writeFileSync(join(sb.ws, 'AGENTS.md'), 'v1');
    const doc = await sb.wb.memory!.read({ scope: 'workspace', workspace: sb.ws });
    writeFileSync(join(sb.ws, 'AGENTS.md'), 'theirs');
    const r = await sb.wb.memory!.write({
      scope: 'workspace',
      workspace: sb.ws,
      content: 'mine',
      baseVersion: doc.version,
    });
    expect(r).toMatchObject({ status: 'conflict', document: { content: 'theirs' } });
    expect(readFileSync(join(sb.ws, 'AGENTS.md'), 'utf8')).toBe('theirs');
    // "Keep mine": write again over their version.
    const again = await sb.wb.memory!.write({
      scope: 'workspace',
      workspace: sb.ws,
      content: 'mine',
      baseVersion: r.document.version,
    });
    expect(again.status).toBe('saved');
    expect(readFileSync(join(sb.ws, 'AGENTS.md'), 'utf8')).toBe('mine');
  });

  it('edits CLAUDE.md when that is the file in use', async () => {
    sb = await panelSandbox();
    writeFileSync(join(sb.ws, 'CLAUDE.md'), 'claude rules');
    const doc = await sb.wb.memory!.read({ scope: 'workspace', workspace: sb.ws });
    expect(doc).toMatchObject({
      path: join(sb.ws, 'CLAUDE.md'),
      content: 'claude rules',
      exists: true,
    });
  });

  it('shows the exact system message of the last request and the memory token estimate', async () => {
    sb = await panelSandbox([{ text: 'ok' }]);
    writeFileSync(join(sb.ws, 'AGENTS.md'), 'remember the milk');
    const before = await sb.wb.memory!.effective({ workspace: sb.ws });
    expect(before.system).toBeNull();
    expect(before.memory.text).toBe('remember the milk');
    expect(before.memory.tokens).toBe(Math.ceil('remember the milk'.length / 4));
    const run = await sb.wb.chat.send({ text: 'hi' });
    await run.finished;
    const after = await sb.wb.memory!.effective({ workspace: sb.ws, threadId: run.threadId });
    expect(after.system).toContain('<agent_memory>\nremember the milk');
    expect(after.system).toBe(sb.llm.calls[0]!.request.system.join('\n\n'));
  });
});

/**
 * Subfolder memory as in Claude Code: a package's AGENTS.md / CLAUDE.md joins the system message of
 * the model requests after the agent read or wrote a file in that package, not before.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import { createScriptedLlm } from '../helpers/scripted-llm.ts';

let base: string;
let wb: Workbench | undefined;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-submem-')));
  vi.stubEnv('HOME', join(base, 'user'));
});
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  vi.unstubAllEnvs();
  rmSync(base, { recursive: true, force: true });
});

it('loads a subfolder AGENTS.md and CLAUDE.md into the requests after a tool touched a file there', async () => {
  const ws = join(base, 'ws');
  mkdirSync(join(ws, 'packages', 'api', 'src'), { recursive: true });
  mkdirSync(join(ws, 'packages', 'web'), { recursive: true });
  writeFileSync(join(ws, 'AGENTS.md'), 'ROOT-MEMORY');
  writeFileSync(join(ws, 'packages', 'api', 'CLAUDE.md'), 'API-MEMORY');
  writeFileSync(join(ws, 'packages', 'api', 'src', 'index.ts'), 'export {};\n');
  writeFileSync(join(ws, 'packages', 'web', 'AGENTS.md'), 'WEB-MEMORY');
  const llm = createScriptedLlm([
    { toolCalls: [{ name: 'read_file', args: { path: 'packages/api/src/index.ts' } }] },
    { text: 'done' },
  ]);
  wb = await createWorkbench({ home: join(base, 'home'), workspace: ws, llm, interactive: false });
  await (
    await wb.chat.send({ text: 'look at the api', approvalMode: 'auto' })
  ).finished;
  llm.assertComplete();
  const [first, second] = llm.calls.map((c) => c.request.system.join('\n'));
  expect(first).toContain('ROOT-MEMORY');
  expect(first).not.toContain('API-MEMORY');
  expect(second).toContain('API-MEMORY');
  expect(second).not.toContain('WEB-MEMORY');
});

it("keeps a touched subfolder's memory for the thread's next runs and lists it in the memory panel", async () => {
  const ws = join(base, 'ws');
  mkdirSync(join(ws, 'packages', 'api'), { recursive: true });
  writeFileSync(join(ws, 'packages', 'api', 'AGENTS.md'), 'API-MEMORY');
  writeFileSync(join(ws, 'packages', 'api', 'main.go'), 'package main\n');
  const llm = createScriptedLlm([
    { toolCalls: [{ name: 'read_file', args: { path: 'packages/api/main.go' } }] },
    { text: 'read it' },
    { text: 'still here' },
  ]);
  wb = await createWorkbench({ home: join(base, 'home'), workspace: ws, llm, interactive: false });
  const first = await wb.chat.send({ text: 'look at the api', approvalMode: 'auto' });
  await first.finished;
  await (await wb.chat.send({ threadId: first.threadId, text: 'and now?', approvalMode: 'auto' })).finished;
  llm.assertComplete();
  expect(llm.calls[2].request.system.join('\n')).toContain('API-MEMORY');
  const effective = await wb.memory.effective({ workspace: ws, threadId: first.threadId });
  expect(effective.memory.sources).toContainEqual(
    expect.objectContaining({ scope: 'subfolder', path: join(ws, 'packages', 'api', 'AGENTS.md') }),
  );
});

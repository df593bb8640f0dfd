import { mkdtempSync, mkdirSync, rmSync, writeFileSync, realpathSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunContext } from '../../../src/main/pipeline/hook.ts';
import type { Workspace } from '../../../src/main/tools/workspace.ts';
import { createMemoryHook } from '../../../src/main/middleware/memory.ts';
import { loadMemory, MEMORY_FILE_CAP, MEMORY_SEPARATOR } from '../../../src/main/memory/loader.ts';
import { createSummarizationHook } from '../../../src/main/middleware/summarization.ts';
import type { LlmClient, LlmResponse } from '../../../src/main/llm/types.ts';
import type { ModelRequest } from '../../../src/main/llm/types.ts';
import type { AgentState, Message } from '../../../src/shared/types/index.ts';
import { requestOf } from '../../helpers/model-request.ts';

let tmp: string;
let home: string;
let workspace: string;
beforeEach(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'wb-memory-')));
  home = join(tmp, 'home');
  workspace = join(tmp, 'ws');
  mkdirSync(home);
  mkdirSync(workspace);
  // ~/.claude/CLAUDE.md is a memory source: the machine's own must not leak into these tests.
  vi.stubEnv('HOME', join(tmp, 'user'));
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(tmp, { recursive: true, force: true });
});

function ctxFor(messages: Message[] = [], llm?: LlmClient): RunContext {
  const state: AgentState = { thread_id: 't1', messages, todos: [], files: {} };
  return {
    threadId: 't1',
    runId: 'r1',
    workspace: {
      root: workspace,
      extraRoots: [],
      programs: () => [],
      addReadRoot: () => {},
    } as unknown as Workspace,
    home,
    model: 'm',
    llm,
    signal: new AbortController().signal,
    state,
    emit: () => {},
  } as unknown as RunContext;
}

const memoryOf = (req: ModelRequest) =>
  /<agent_memory>\n([\s\S]*)\n<\/agent_memory>/.exec(req.system.join('\n\n'))?.[1];

describe('loadMemory', () => {
  it('reads user, workspace and extra sources in order, joined by the separator', async () => {
    writeFileSync(join(home, 'AGENTS.md'), 'user prefs\n');
    writeFileSync(join(workspace, 'AGENTS.md'), 'workspace notes');
    mkdirSync(join(workspace, 'pkg'));
    writeFileSync(join(workspace, 'pkg', 'CLAUDE.md'), 'pkg claude notes');
    writeFileSync(join(workspace, 'docs.md'), 'extra file');
    const m = await loadMemory({
      home,
      workspace,
      extraPaths: ['pkg', 'docs.md', 'missing.md', 'AGENTS.md'],
    });
    expect(m.text).toBe(
      ['user prefs', 'workspace notes', 'pkg claude notes', 'extra file'].join(MEMORY_SEPARATOR),
    );
    expect(m.sources.map((s) => [s.scope, s.path.slice(tmp.length), s.exists])).toEqual([
      ['user', '/home/AGENTS.md', true],
      ['workspace', '/ws/AGENTS.md', true],
      ['extra', '/ws/pkg/CLAUDE.md', true],
      ['extra', '/ws/docs.md', true],
      ['extra', '/ws/missing.md', false],
    ]);
    expect(m.editPath).toBe(join(workspace, 'AGENTS.md'));
  });

  it('edits CLAUDE.md when AGENTS.md is absent; with both, both count and AGENTS.md is edited', async () => {
    writeFileSync(join(workspace, 'CLAUDE.md'), 'claude memory');
    let m = await loadMemory({ home, workspace });
    expect(m.text).toBe('claude memory');
    expect(m.editPath).toBe(join(workspace, 'CLAUDE.md'));
    writeFileSync(join(workspace, 'AGENTS.md'), 'agents memory');
    m = await loadMemory({ home, workspace });
    expect(m.text).toBe(['agents memory', 'claude memory'].join(MEMORY_SEPARATOR));
    expect(m.editPath).toBe(join(workspace, 'AGENTS.md'));
  });

  it('caps each file at 64 KiB with a note', async () => {
    writeFileSync(join(workspace, 'AGENTS.md'), 'é'.repeat(MEMORY_FILE_CAP)); // 2 bytes each: cut mid-way
    const m = await loadMemory({ home, workspace });
    const ws = m.sources[1];
    expect(ws).toMatchObject({ truncated: true, bytes: 2 * MEMORY_FILE_CAP });
    expect(m.text).toContain(
      `[memory file truncated: ${join(workspace, 'AGENTS.md')} is ${2 * MEMORY_FILE_CAP} bytes`,
    );
    expect(m.text).not.toContain('\uFFFD');
    expect(m.text.length).toBeLessThan(MEMORY_FILE_CAP / 2 + 200);
  });
});

describe('MemoryHook', () => {
  it('adds <agent_memory> and the guidelines as a system block', async () => {
    writeFileSync(join(home, 'AGENTS.md'), 'U');
    writeFileSync(join(workspace, 'AGENTS.md'), 'W');
    const hook = createMemoryHook({ home });
    const ctx = ctxFor();
    await hook.beforeAgent!(ctx, ctx.state);
    const input = requestOf([{ role: 'user', content: 'hi' }]);
    const out = await hook.modifyRequest!(ctx, input);
    expect(input.system).toEqual([]);
    expect(out.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(out.system).toEqual([
      [
        '<agent_memory>',
        `U${MEMORY_SEPARATOR}W`,
        '</agent_memory>',
        '',
        'Guidelines for agent memory:',
        '- This memory persists across conversations',
        `- You can update it by using edit_file on the AGENTS.md file: ${join(workspace, 'AGENTS.md')} (create it with write_file if it does not exist)`,
        '- Use it to track important context, decisions, and patterns',
        '- Keep entries concise and organized',
      ].join('\n'),
    ]);
  });

  it('comes after the earlier system blocks, without mutating the request', async () => {
    writeFileSync(join(workspace, 'AGENTS.md'), 'W');
    const hook = createMemoryHook({ home });
    const input = requestOf([{ role: 'user', content: 'hi' }], ['You are helpful.']);
    const out = await hook.modifyRequest!(ctxFor(), input);
    expect(input.system).toEqual(['You are helpful.']);
    expect(out.system[0]).toBe('You are helpful.');
    expect(out.system[1].startsWith('<agent_memory>\nW\n</agent_memory>')).toBe(true);
    expect(out.messages).toBe(input.messages);
  });

  it('says so when there is no memory yet', async () => {
    const out = await createMemoryHook({ home }).modifyRequest!(
      ctxFor(),
      requestOf([{ role: 'user', content: 'hi' }]),
    );
    expect(memoryOf(out)).toBe('(no memory yet)');
  });

  it('carries an edit of AGENTS.md in the very next request', async () => {
    const file = join(workspace, 'AGENTS.md');
    writeFileSync(file, 'version one');
    const hook = createMemoryHook({ home });
    const ctx = ctxFor();
    await hook.beforeAgent!(ctx, ctx.state);
    expect(
      memoryOf(await hook.modifyRequest!(ctx, requestOf([{ role: 'user', content: 'a' }]))),
    ).toBe('version one');
    // Same size and a forced identical mtime: the inode change time still tells them apart.
    writeFileSync(file, 'version two');
    const t = new Date('2026-01-01T00:00:00Z');
    utimesSync(file, t, t);
    expect(
      memoryOf(await hook.modifyRequest!(ctx, requestOf([{ role: 'user', content: 'a' }]))),
    ).toBe('version two');
    writeFileSync(file, 'a longer third version');
    expect(
      memoryOf(await hook.modifyRequest!(ctx, requestOf([{ role: 'user', content: 'a' }]))),
    ).toBe('a longer third version');
    rmSync(file);
    expect(
      memoryOf(await hook.modifyRequest!(ctx, requestOf([{ role: 'user', content: 'a' }]))),
    ).toBe('(no memory yet)');
  });

  it('survives a summarization: the compacted request still carries <agent_memory>', async () => {
    writeFileSync(join(workspace, 'AGENTS.md'), 'remember: tabs not spaces');
    const thread: Message[] = [];
    for (let i = 0; i < 20; i++)
      thread.push(
        { role: 'user', content: `question ${i} ${'x'.repeat(400)}` },
        { role: 'assistant', content: `answer ${i}` },
      );
    const summary: LlmResponse = { content: 'they asked twenty questions', tool_calls: [] };
    const llm: LlmClient = { chat: async () => summary };
    const ctx = ctxFor(thread, llm);
    const memory = createMemoryHook({ home });
    const summarization = createSummarizationHook({
      contextWindow: 2_000,
      compaction: { strategy: 'summarization' },
    });
    const request = await memory.modifyRequest!(ctx, requestOf(thread.slice()));
    let sent = request;
    await summarization.wrapModelCall!(ctx, request, async (req) => {
      sent = req;
      return { content: 'ok', tool_calls: [] };
    });
    expect(sent.messages.length).toBeLessThan(request.messages.length);
    expect(memoryOf(sent)).toBe('remember: tabs not spaces');
    expect(sent.messages[0].content).toBe(
      '[Summary of earlier conversation]\nthey asked twenty questions',
    );
  });
});

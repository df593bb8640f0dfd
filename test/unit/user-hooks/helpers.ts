/** Test helpers for user hooks: temp workspace/home, zoo installs, a minimal RunContext. */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { RunContext } from '../../../src/main/pipeline/hook.ts';
import { defaultAgentProfile } from '../../../src/main/agents/profile.ts';
import { ToolRegistry } from '../../../src/main/tools/registry.ts';
import { createFilesystemTools, toolOutput } from '../../../src/main/tools/index.ts';
import { PathOutsideWorkspaceError, type Workspace } from '../../../src/main/tools/workspace.ts';
import { createTraceRecorder } from '../../../src/main/tracing/index.ts';
import type { HookRunRecord, SpanRecord, RunEvent, WorkbenchSettings } from '../../../src/shared/types/index.ts';
import { DEFAULT_SETTINGS } from '../../../src/shared/types/index.ts';
import type { HookRunStore } from '../../../src/main/store/types.ts';

export const ZOO = resolve(import.meta.dirname, '../../fixtures/hook-zoo');

export interface Sandbox {
  ws: string;
  home: string;
  wsHooks: string;
  userHooks: string;
  cleanup(): void;
}

export function sandbox(): Sandbox {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-hooks-')));
  const ws = join(base, 'ws');
  const home = join(base, 'home');
  const wsHooks = join(ws, '.workbench', 'hooks');
  const userHooks = join(home, 'hooks');
  mkdirSync(wsHooks, { recursive: true });
  mkdirSync(userHooks, { recursive: true });
  return { ws, home, wsHooks, userHooks, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** Copies the zoo dispatcher into `dir` as `name` (`[prefix@]<event>--<behaviour>`). */
export function installZoo(dir: string, name: string): string {
  const dest = join(dir, name);
  copyFileSync(join(ZOO, 'zoo'), dest);
  chmodSync(dest, 0o755);
  return dest;
}

export function installFixture(dir: string, fixture: string, name = fixture.split('/').pop()!): string {
  const dest = join(dir, name);
  copyFileSync(join(ZOO, fixture), dest);
  chmodSync(dest, statSync(join(ZOO, fixture)).mode & 0o777);
  return dest;
}

export function fakeWorkspace(root: string): Workspace {
  return {
    root,
    extraRoots: [],
    programs: () => [],
    allowHardLinks: false,
    async resolve(p: string) {
      const abs = isAbsolute(p) ? resolve(p) : resolve(root, p);
      const rel = relative(root, abs);
      if (rel.startsWith('..') || isAbsolute(rel)) throw new PathOutsideWorkspaceError(p);
      return abs;
    },
    display: (p) => relative(root, p) || '.',
    addReadRoot() {},
    openRead: () => {
      throw new Error('not used by hook tests');
    },
    write: () => Promise.reject(new Error('not used by hook tests')),
  };
}

export function memoryHookRuns(): HookRunStore & { rows: HookRunRecord[] } {
  const rows: HookRunRecord[] = [];
  return {
    rows,
    insert(run) {
      const id = rows.length + 1;
      rows.push({ ...run, id });
      return id;
    },
    get: (id) => rows.find((r) => r.id === id),
    recent: (o) => [...rows].reverse().slice(0, o?.limit ?? 100),
    health: () => new Map(),
  };
}

export function settingsWith(overrides: WorkbenchSettings['hook_overrides'] = {}, patch: Partial<WorkbenchSettings> = {}): WorkbenchSettings {
  return { ...structuredClone(DEFAULT_SETTINGS), hook_overrides: overrides, ...patch };
}

export interface TestContext {
  ctx: RunContext;
  events: RunEvent[];
  spans: SpanRecord[];
}

export function testContext(ws: string, home: string, settings: WorkbenchSettings = settingsWith()): TestContext {
  const events: RunEvent[] = [];
  const spans: SpanRecord[] = [];
  const tools = new ToolRegistry();
  // The real definitions (schemas, effects, Claude names) with an execute that only reports its input.
  for (const tool of createFilesystemTools()) {
    tools.register({ ...tool, execute: async (args) => `${tool.name} ran with ${JSON.stringify(args)}` });
  }
  const trace = createTraceRecorder({ threadId: 'thread_1', runId: 'run_1', sink: { onStart: () => {}, onEnd: (s) => spans.push(s) } });
  const t: TestContext = { events, spans, ctx: undefined as unknown as RunContext };
  t.ctx = {
    threadId: 'thread_1',
    runId: 'run_1',
    workspace: fakeWorkspace(ws),
    home,
    model: 'test-model',
    llm: { chat: async () => ({ content: '', tool_calls: [] }) },
    settings,
    profile: defaultAgentProfile(ws),
    signal: new AbortController().signal,
    state: { thread_id: 'thread_1', messages: [{ role: 'user', content: 'hello' }], todos: [], files: {} },
    tools,
    trace,
    trusted: true,
    emit: (e) => events.push(e),
    recordFile: () => {},
    setTodos: () => {},
  };
  return t;
}

/** The terminal of the tool onion in tests: runs the fake tool. */
export const runTool = (t: TestContext) => async (call: { id: string; name: string; args: Record<string, unknown> }) => {
  const tool = t.ctx.tools.get(call.name)!;
  const out = toolOutput(await tool.execute(call.args, { callId: call.id, workspace: t.ctx.workspace, signal: t.ctx.signal, state: t.ctx.state }));
  return { tool_call_id: call.id, name: call.name, output: out.content, status: out.status };
};

/**
 * Points Claude Code's user folder and its managed settings file at the test's own (never the
 * machine's) and returns what puts both variables back.
 */
export function isolateClaudeSettings(claudeDir: string, managedFile: string): () => void {
  const saved = { CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR, WORKBENCH_CLAUDE_MANAGED_SETTINGS: process.env.WORKBENCH_CLAUDE_MANAGED_SETTINGS };
  process.env.CLAUDE_CONFIG_DIR = claudeDir;
  process.env.WORKBENCH_CLAUDE_MANAGED_SETTINGS = managedFile;
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/**
 * A sandbox for each test whose Claude Code folder (`claudeDir`) and managed settings are its own;
 * registers the hooks that make and remove them. A test file's own afterEach runs before its cleanup.
 */
export function useClaudeSandbox(): { readonly sb: Sandbox; readonly claudeDir: string } {
  const current = {} as { sb: Sandbox; claudeDir: string; restore: () => void };
  beforeEach(() => {
    current.sb = sandbox();
    current.claudeDir = join(current.sb.home, '..', 'dot-claude');
    mkdirSync(current.claudeDir);
    current.restore = isolateClaudeSettings(current.claudeDir, join(current.claudeDir, '..', 'managed-settings.json'));
  });
  afterEach(() => {
    current.restore();
    current.sb.cleanup();
  });
  return current;
}

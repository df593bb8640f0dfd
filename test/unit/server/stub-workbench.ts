/** A tiny in-memory Workbench for transport tests (no database, no LLM; panels over `home`). */
import { createHooksService } from '../../../src/main/api/panels/hooks-service.ts';
import { createMemoryService } from '../../../src/main/api/panels/memory-service.ts';
import type { PanelDeps } from '../../../src/main/api/panels/panel-deps.ts';
import { createSkillsService } from '../../../src/main/api/panels/skills-service.ts';
import { createAgentsService } from '../../../src/main/api/panels/agents-service.ts';
import { createTrustService } from '../../../src/main/api/panels/trust-service.ts';
import type { ResumeArgs, Workbench } from '../../../src/main/api/types.ts';
import { WorkbenchError } from '../../../src/main/errors.ts';
import { createTrustStore } from '../../../src/main/user-hooks/trust-store.ts';
import type { StreamEvent, ThreadSummary, WorkbenchSettings } from '../../../src/shared/types/index.ts';
import { DEFAULT_SETTINGS } from '../../../src/shared/types/settings.ts';

export interface StubWorkbench extends Workbench {
  emit(event: StreamEvent): void;
  sent: Array<{ threadId?: string; text: string }>;
  resumed: ResumeArgs[];
}

export function createStubWorkbench(workspace = '/tmp', home = '/tmp/home'): StubWorkbench {
  const listeners = new Set<(e: StreamEvent) => void>();
  const threads = new Map<string, ThreadSummary>();
  let settings: WorkbenchSettings = structuredClone(DEFAULT_SETTINGS);
  let key: string | undefined;
  const sent: StubWorkbench['sent'] = [];
  const resumed: ResumeArgs[] = [];
  const create = (title = 'New thread'): ThreadSummary => {
    const s = { thread_id: `t${threads.size + 1}`, title, workspace, created_at: 1, updated_at: 1, message_count: 0 };
    threads.set(s.thread_id, s);
    return s;
  };
  const settingsPort: PanelDeps['settings'] = {
    get: () => settings,
    update: async (p) => (settings = { ...settings, ...p }),
  };
  const trust = createTrustStore(home);
  const panels: PanelDeps = { home, settings: settingsPort, trust };
  return {
    home,
    workspace,
    sent,
    resumed,
    emit: (e) => listeners.forEach((l) => l(e)),
    threads: {
      list: () => [...threads.values()],
      children: () => [],
      get: ({ threadId }) => (threads.has(threadId) ? { thread_id: threadId, messages: [], todos: [], files: {} } : undefined),
      summary: ({ threadId }) => threads.get(threadId),
      create: (a) => create(a?.title),
      rename: ({ threadId, title }) => void (threads.get(threadId)!.title = title),
      delete: ({ threadId }) => void threads.delete(threadId),
      compact: async () => ({ compacted: false, before_tokens: 0, after_tokens: 0, summarized_messages: 0 }),
      setMetadata: (a) => ({ ...a.set }),
      runs: () => [],
      fork: () => create(),
      context: async () => ({ used: 0, window: 128_000 }),
    },
    chat: {
      send: async (a) => {
        sent.push({ threadId: a.threadId, text: a.text });
        const id = a.threadId ?? create().thread_id;
        return { threadId: id, runId: 'r1', finished: Promise.resolve({ stop_reason: 'completed' }) };
      },
      resume: async (a) => {
        resumed.push(a);
        return { threadId: a.threadId, runId: 'r2', finished: Promise.resolve({ stop_reason: 'completed' }) };
      },
      cancel: () => false,
      approve: () => true,
      pendingApprovals: () => [],
      answerElicitation: () => ({ accepted: false, error: 'no such request' }),
      pendingElicitations: () => [],
      running: () => [],
    },
    settings: settingsPort,
    inspect: { lastRequest: () => undefined },
    recipes: { list: async () => [] },
    trace: {
      list: () => [],
      export: (a) => ({ filename: `trace-${a.threadId}.json`, content: '{}\n' }),
      import: () => {
        throw new WorkbenchError('invalid_args', 'the stub imports no traces');
      },
      hookRun: () => null,
    },
    memory: createMemoryService(panels),
    skills: createSkillsService(panels),
    agents: createAgentsService(panels),
    hooks: createHooksService(panels),
    trust: createTrustService(trust),
    mcp: {
      list: async () => ({ servers: [], diagnostics: [] }),
      set: async () => ({ servers: [], diagnostics: [] }),
      restart: async () => ({ servers: [], diagnostics: [] }),
      resourceMentions: async () => [],
    },
    checkpoints: {
      list: () => [],
      diff: () => [],
      revert: async () => ({ status: 'nothing', reverted: [], conflicts: [], unavailable: [] }),
    },
    credentials: { setApiKey: (a) => void (key = a.apiKey), hasApiKey: () => Boolean(key) },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close: async () => {},
  };
}

/** A tiny in-memory Workbench for transport tests (no database, no LLM). */
import type { Workbench } from '../../../src/main/api/types.ts';
import type { StreamEvent, ThreadSummary, WorkbenchSettings } from '../../../src/shared/types/index.ts';
import { DEFAULT_SETTINGS } from '../../../src/shared/types/settings.ts';

export interface StubWorkbench extends Workbench {
  emit(event: StreamEvent): void;
  sent: Array<{ threadId?: string; text: string }>;
}

export function createStubWorkbench(workspace = '/tmp'): StubWorkbench {
  const listeners = new Set<(e: StreamEvent) => void>();
  const threads = new Map<string, ThreadSummary>();
  let settings: WorkbenchSettings = structuredClone(DEFAULT_SETTINGS);
  let key: string | undefined;
  const sent: StubWorkbench['sent'] = [];
  const create = (title = 'New thread'): ThreadSummary => {
    const s = { thread_id: `t${threads.size + 1}`, title, workspace, created_at: 1, updated_at: 1, message_count: 0 };
    threads.set(s.thread_id, s);
    return s;
  };
  return {
    home: '/tmp/home',
    workspace,
    sent,
    emit: (e) => listeners.forEach((l) => l(e)),
    threads: {
      list: () => [...threads.values()],
      get: ({ threadId }) => (threads.has(threadId) ? { thread_id: threadId, messages: [], todos: [], files: {} } : undefined),
      summary: ({ threadId }) => threads.get(threadId),
      create: (a) => create(a?.title),
      rename: ({ threadId, title }) => void (threads.get(threadId)!.title = title),
      delete: ({ threadId }) => void threads.delete(threadId),
    },
    chat: {
      send: async (a) => {
        sent.push({ threadId: a.threadId, text: a.text });
        const id = a.threadId ?? create().thread_id;
        return { threadId: id, runId: 'r1', finished: Promise.resolve({ stop_reason: 'completed' }) };
      },
      cancel: () => false,
      approve: () => true,
      pendingApprovals: () => [],
      running: () => [],
    },
    settings: {
      get: () => settings,
      update: async (p) => (settings = { ...settings, ...p }),
    },
    inspect: { lastRequest: () => undefined },
    credentials: { setApiKey: (a) => void (key = a.apiKey), hasApiKey: () => Boolean(key) },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close: async () => {},
  };
}

/** Chat: the active thread, sending (with a queue while a run is going), cancel and approvals. */
import type { StateCreator } from 'zustand';
import { call } from '../../ipc/client.ts';
import { emptyThread } from '../chat-types.ts';
import { loadThread } from '../apply-event.ts';
import { subagentsFromChildren } from '../../features/agents/subagent-events.ts';
import type { ChatSlice, WorkbenchState } from '../state.ts';
import { errorMessage } from '../../../shared/error-message.ts';

/** Creates the chat slice. */
export const createChatSlice: StateCreator<WorkbenchState, [], [], ChatSlice> = (set, get) => ({
  chat: { threads: {}, lastSeq: 0 },
  activeThreadId: null,

  async openThread(threadId) {
    set({ activeThreadId: threadId });
    if (threadId) await get().reloadThread(threadId);
  },

  async reloadThread(threadId) {
    try {
      const view = await call('threads.get', { threadId });
      set((s) => {
        const chat = loadThread(s.chat, view.state, view.running, view.approvals);
        const t = chat.threads[threadId]!;
        const subagents = subagentsFromChildren(view.children, t.subagents);
        const agent = view.summary.agent;
        return { chat: { ...chat, threads: { ...chat.threads, [threadId]: { ...t, subagents, agent } } } };
      });
    } catch (err) {
      get().setBanner(`Could not open the thread: ${errorMessage(err)}`);
    }
  },

  async send(text, agent) {
    const trimmed = text.trim();
    if (!trimmed) return;
    const id = get().activeThreadId;
    const thread = id ? get().chat.threads[id] : undefined;
    if (id && thread?.running) {
      set((s) => ({ chat: { ...s.chat, threads: { ...s.chat.threads, [id]: { ...thread, queue: [...thread.queue, trimmed] } } } }));
      return;
    }
    try {
      const r = await call('chat.send', { threadId: id ?? undefined, text: trimmed, workspace: id ? undefined : get().workspace.path || undefined, ...(agent ? { agent } : {}) });
      set((s) => {
        const t = s.chat.threads[r.threadId] ?? { ...emptyThread(r.threadId), loaded: !id };
        // Events of this run may have arrived before the answer (even `done`): only an unseen run is marked running.
        const seen = t.runId === r.runId;
        const started = seen ? t : { ...t, running: true, runId: r.runId };
        const next = agent ? { ...started, agent } : started;
        return { activeThreadId: s.activeThreadId === id ? r.threadId : s.activeThreadId, chat: { ...s.chat, threads: { ...s.chat.threads, [r.threadId]: next } } };
      });
      if (!id && !get().chat.threads[r.threadId]?.messages.length) void get().reloadThread(r.threadId);
      void get().refreshThreads();
    } catch (err) {
      get().setBanner(`Could not send: ${errorMessage(err)}`);
    }
  },

  async resume(threadId) {
    try {
      const r = await call('chat.resume', { threadId });
      set((s) => {
        const t = s.chat.threads[threadId] ?? emptyThread(threadId);
        return { chat: { ...s.chat, threads: { ...s.chat.threads, [threadId]: t.runId === r.runId ? t : { ...t, running: true, runId: r.runId } } } };
      });
      void get().refreshThreads();
    } catch (err) {
      get().setBanner(`Could not resume: ${errorMessage(err)}`);
    }
  },

  async cancel() {
    const id = get().activeThreadId;
    if (!id) return;
    try {
      await call('chat.cancel', { threadId: id });
    } catch (err) {
      get().setBanner(`Could not cancel: ${errorMessage(err)}`);
    }
  },

  async approve(approvalId, decision) {
    try {
      await call('chat.approve', { approvalId, decision });
    } catch (err) {
      get().setBanner(`Could not answer the approval: ${errorMessage(err)}`);
    }
  },

  async drainQueue(threadId) {
    const t = get().chat.threads[threadId];
    if (!t || t.running || t.queue.length === 0) return;
    const [next, ...rest] = t.queue;
    set((s) => ({ chat: { ...s.chat, threads: { ...s.chat.threads, [threadId]: { ...t, queue: rest, running: true } } } }));
    try {
      await call('chat.send', { threadId, text: next! });
    } catch (err) {
      set((s) => ({ chat: { ...s.chat, threads: { ...s.chat.threads, [threadId]: { ...s.chat.threads[threadId]!, running: false } } } }));
      get().setBanner(`Could not send the queued message: ${errorMessage(err)}`);
    }
  },
});

/** Chat: the active thread, sending (with a queue while a run is going), cancel and approvals. */
import type { StateCreator } from 'zustand';
import { call, CallError } from '../../ipc/client.ts';
import { emptyThread, type ThreadChat } from '../chat-types.ts';
import { loadThread } from '../apply-event.ts';
import { stripHookContext } from '../../features/chat/rows.ts';
import { subagentsFromChildren } from '../../features/agents/subagent-events.ts';
import type { ChatSlice, WorkbenchState } from '../state.ts';
import { errorMessage } from '../../../shared/error-message.ts';

/** Where a failed send into a thread not created yet is kept (the composer of "New thread"). */
export const NEW_THREAD_KEY = '';

type Set = Parameters<StateCreator<WorkbenchState, [], [], ChatSlice>>[0];

/** Replaces one thread's chat entry (creating an empty one when unknown). */
function patch(set: Set, threadId: string, fn: (t: ThreadChat) => ThreadChat): void {
  set((s) => {
    const t = s.chat.threads[threadId] ?? emptyThread(threadId);
    return { chat: { ...s.chat, threads: { ...s.chat.threads, [threadId]: fn(t) } } };
  });
}

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

  async send(text, options = {}) {
    const trimmed = text.trim();
    if (!trimmed) return false;
    const id = get().activeThreadId;
    const thread = id ? get().chat.threads[id] : undefined;
    if (id && thread?.running) {
      patch(set, id, (t) => ({ ...t, queue: [...t.queue, trimmed] }));
      return true;
    }
    // Set before the call: a hook may block the prompt before chat.send even answers.
    if (id) patch(set, id, (t) => ({ ...t, pendingText: trimmed, failedSend: undefined }));
    try {
      const r = await call('chat.send', {
        threadId: id ?? undefined,
        text: trimmed,
        workspace: id ? undefined : get().workspace.path || undefined,
        ...options,
      });
      set((s) => {
        const t = s.chat.threads[r.threadId] ?? { ...emptyThread(r.threadId), loaded: !id };
        // Events of this run may have arrived before the answer (even `done`): only an unseen run is marked running.
        const seen = t.runId === r.runId;
        const base = seen ? t : { ...t, running: true, runId: r.runId };
        const next = {
          ...base,
          ...(options.agent ? { agent: options.agent } : {}),
          pendingText: base.running ? (base.pendingText ?? trimmed) : undefined,
          failedSend: base.failedSend && !base.failedSend.text ? { ...base.failedSend, text: trimmed } : base.failedSend,
        };
        return { activeThreadId: s.activeThreadId === id ? r.threadId : s.activeThreadId, chat: { ...s.chat, threads: { ...s.chat.threads, [r.threadId]: next } } };
      });
      if (!id && !get().chat.threads[r.threadId]?.messages.length) void get().reloadThread(r.threadId);
      void get().refreshThreads();
      return true;
    } catch (err) {
      const failedSend = { text: trimmed, error: errorMessage(err), code: err instanceof CallError ? err.code : undefined };
      patch(set, id ?? NEW_THREAD_KEY, (t) => ({ ...t, pendingText: undefined, failedSend }));
      return false;
    }
  },

  async retry(text, options = {}) {
    const trimmed = text.trim();
    const id = get().activeThreadId;
    const thread = id ? get().chat.threads[id] : undefined;
    const last = thread?.messages.at(-1);
    const stored = last?.role === 'user' && stripHookContext(last.content).trim() === trimmed;
    if (!id || !thread || thread.running || !stored) return get().send(text, options);
    patch(set, id, (t) => ({ ...t, pendingText: trimmed, failedSend: undefined }));
    try {
      const r = await call('chat.resume', { threadId: id, ...options });
      patch(set, id, (t) => {
        // As after a send: events of this run may have arrived before the answer.
        const base = t.runId === r.runId ? t : { ...t, running: true, runId: r.runId };
        return {
          ...base,
          ...(options.agent ? { agent: options.agent } : {}),
          pendingText: base.running ? (base.pendingText ?? trimmed) : undefined,
        };
      });
      void get().refreshThreads();
      return true;
    } catch (err) {
      const failedSend = { text: trimmed, error: errorMessage(err), code: err instanceof CallError ? err.code : undefined };
      patch(set, id, (t) => ({ ...t, pendingText: undefined, failedSend }));
      return false;
    }
  },

  clearFailure(threadId) {
    if (get().chat.threads[threadId]?.failedSend) patch(set, threadId, (t) => ({ ...t, failedSend: undefined }));
  },

  async resendFrom(index, text) {
    const id = get().activeThreadId;
    if (!id) return;
    try {
      const fork = await call('threads.fork', { threadId: id, upTo: index });
      await get().openThread(fork.thread_id);
      await get().send(text);
    } catch (err) {
      get().setBanner(`Could not resend: ${errorMessage(err)}`);
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

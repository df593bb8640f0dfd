/** Chat: the active thread, sending (with a queue while a run is going), cancel, approvals and MCP servers' questions. */
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

/** A thread whose run started: marked running unless its events (which may arrive first) already ended it. */
function started(t: ThreadChat, runId: string): ThreadChat {
  return t.runId === runId ? t : { ...t, running: true, runId };
}

/** A thread after a send (or retry) of `text` started: the text stays pending while the run goes. */
function sendStarted(t: ThreadChat, runId: string, text: string, agent?: string): ThreadChat {
  const base = started(t, runId);
  return { ...base, ...(agent ? { agent } : {}), pendingText: base.running ? (base.pendingText ?? text) : undefined };
}

/** Gives a refused send's text back to the thread's composer, with why. */
function refused(set: Set, key: string, text: string, err: unknown): void {
  const failedSend = { text, error: errorMessage(err), code: err instanceof CallError ? err.code : undefined };
  patch(set, key, (t) => ({ ...t, pendingText: undefined, failedSend }));
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
        const chat = loadThread(s.chat, view.state, view.running, view.approvals, view.elicitations);
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
        const base = sendStarted(t, r.runId, trimmed, options.agent);
        const next = {
          ...base,
          failedSend: base.failedSend && !base.failedSend.text ? { ...base.failedSend, text: trimmed } : base.failedSend,
        };
        return { activeThreadId: s.activeThreadId === id ? r.threadId : s.activeThreadId, chat: { ...s.chat, threads: { ...s.chat.threads, [r.threadId]: next } } };
      });
      if (!id && !get().chat.threads[r.threadId]?.messages.length) void get().reloadThread(r.threadId);
      void get().refreshThreads();
      return true;
    } catch (err) {
      refused(set, id ?? NEW_THREAD_KEY, trimmed, err);
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
      patch(set, id, (t) => sendStarted(t, r.runId, trimmed, options.agent));
      void get().refreshThreads();
      return true;
    } catch (err) {
      refused(set, id, trimmed, err);
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
      patch(set, threadId, (t) => started(t, r.runId));
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

  async answerElicitation(elicitationId, answer) {
    try {
      return await call('chat.answerElicitation', { elicitationId, ...answer });
    } catch (err) {
      return { accepted: false, error: errorMessage(err) };
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

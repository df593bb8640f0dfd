import { useState } from 'react';
import { useWorkbenchStore } from '../../stores/store.ts';
import { emptyThread } from '../../stores/chat-types.ts';
import { ApprovalCard } from './ApprovalCard.tsx';
import { ElicitationCard } from './ElicitationCard.tsx';
import { Composer } from './Composer.tsx';
import { MessageList } from './MessageList.tsx';
import { InterruptedBanner } from './InterruptedBanner.tsx';
import { HookStatus } from './HookStatus.tsx';
import { ThreadInfoDrawer } from './ThreadInfoDrawer.tsx';
import { LayoutToggles } from '../layout/LayoutToggles.tsx';

const NO_THREAD = emptyThread('');

/** The middle column: messages, pending approvals and MCP servers' questions, and the composer. */
export function ChatView() {
  const activeId = useWorkbenchStore((s) => s.activeThreadId);
  const thread = useWorkbenchStore((s) => (s.activeThreadId ? s.chat.threads[s.activeThreadId] : undefined)) ?? NO_THREAD;
  const title = useWorkbenchStore((s) => s.threads.find((t) => t.thread_id === s.activeThreadId)?.title);
  const interrupted = useWorkbenchStore((s) => s.threads.find((t) => t.thread_id === s.activeThreadId)?.last_run_state === 'interrupted');
  const [infoOpen, setInfoOpen] = useState(false);
  const empty = !activeId || (thread.loaded && thread.messages.length === 0 && thread.notices.length === 0 && !thread.running);
  return (
    <main className="chat" aria-label="Chat">
      <header className="chat-header">
        <h1 data-testid="thread-title">{activeId ? (title ?? 'Thread') : 'New thread'}</h1>
        {thread.running && (
          <span className="run-badge" data-testid="run-status">
            Running
          </span>
        )}
        {activeId && (
          <button type="button" className="thread-info-toggle" onClick={() => setInfoOpen(!infoOpen)} aria-expanded={infoOpen} data-testid="thread-info-button">
            Info
          </button>
        )}
        <LayoutToggles />
      </header>
      {activeId && infoOpen && <ThreadInfoDrawer threadId={activeId} onClose={() => setInfoOpen(false)} />}
      {activeId && interrupted && !thread.running && <InterruptedBanner threadId={activeId} />}
      {empty ? (
        <div className="chat-empty" data-testid="chat-empty">
          <h2>What should the agent do?</h2>
          <p>It can read, edit and run things in your workspace. Writes and commands ask first.</p>
        </div>
      ) : (
        <MessageList thread={thread} />
      )}
      {(thread.approvals.length > 0 || thread.elicitations.length > 0) && (
        <div className="approvals">
          {thread.approvals.map((a) => (
            <ApprovalCard key={a.approvalId} approval={a} />
          ))}
          {thread.elicitations.map((q) => (
            <ElicitationCard key={q.elicitation_id} request={q} />
          ))}
        </div>
      )}
      {thread.runningHooks && <HookStatus hooks={thread.runningHooks} />}
      <Composer running={thread.running} queued={thread.queue.length} />
    </main>
  );
}

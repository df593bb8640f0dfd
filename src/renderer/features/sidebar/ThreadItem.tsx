import { Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { ThreadSummary } from '../../../shared/types/index.ts';
import { call } from '../../ipc/client.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { relativeTime } from './relative-time.ts';
import { errorMessage } from '../../../shared/error-message.ts';

/** One sidebar entry: open on click; rename inline; delete after a confirm. */
export function ThreadItem({ thread, active, running }: { thread: ThreadSummary; active: boolean; running: boolean }) {
  const openThread = useWorkbenchStore((s) => s.openThread);
  const deleteThread = useWorkbenchStore((s) => s.deleteThread);
  const refreshThreads = useWorkbenchStore((s) => s.refreshThreads);
  const setBanner = useWorkbenchStore((s) => s.setBanner);
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(thread.title);

  const rename = async () => {
    setEditing(false);
    const next = title.trim();
    if (!next || next === thread.title) return;
    try {
      await call('threads.rename', { threadId: thread.thread_id, title: next });
      await refreshThreads();
    } catch (err) {
      setBanner(`Could not rename: ${errorMessage(err)}`);
    }
  };

  if (editing) {
    return (
      <form
        className="thread-rename"
        onSubmit={(e) => {
          e.preventDefault();
          void rename();
        }}
      >
        <input
          autoFocus
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          onBlur={() => void rename()}
          onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}
          aria-label="Thread title"
          data-testid="thread-rename-input"
        />
      </form>
    );
  }
  return (
    <div className={`thread-row${active ? ' active' : ''}`}>
      <button
        type="button"
        className={`thread-item${active ? ' active' : ''}`}
        onClick={() => void openThread(thread.thread_id)}
        onDoubleClick={() => {
          setTitle(thread.title);
          setEditing(true);
        }}
        data-testid="thread-item"
        aria-current={active ? 'true' : undefined}
      >
        <span className="thread-title">
          {running && <span className="live-dot" aria-label="running" />}
          {thread.title || 'Untitled'}
        </span>
        <span className="thread-time">{relativeTime(thread.updated_at)}</span>
      </button>
      <span className="thread-actions">
        <button
          type="button"
          className="icon-button"
          aria-label={`Rename ${thread.title}`}
          title="Rename"
          data-testid="thread-rename"
          onClick={() => {
            setTitle(thread.title);
            setEditing(true);
          }}
        >
          <Pencil size={13} aria-hidden />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={`Delete ${thread.title}`}
          title="Delete"
          data-testid="thread-delete"
          onClick={() => {
            if (window.confirm(`Delete the thread “${thread.title}”? This cannot be undone.`)) void deleteThread(thread.thread_id);
          }}
        >
          <Trash2 size={13} aria-hidden />
        </button>
      </span>
    </div>
  );
}

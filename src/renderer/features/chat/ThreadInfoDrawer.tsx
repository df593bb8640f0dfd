import { useState, type FormEvent } from 'react';
import { call } from '../../ipc/client.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { errorMessage } from '../../../shared/error-message.ts';

/** The thread info drawer: the thread's metadata, with add and remove (docs/events.md). */
export function ThreadInfoDrawer({ threadId, onClose }: { threadId: string; onClose: () => void }) {
  const summary = useWorkbenchStore((s) => s.threads.find((t) => t.thread_id === threadId));
  const refreshThreads = useWorkbenchStore((s) => s.refreshThreads);
  const setBanner = useWorkbenchStore((s) => s.setBanner);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const metadata = summary?.metadata ?? {};

  const change = async (args: { set?: Record<string, string>; remove?: string[] }) => {
    try {
      await call('threads.setMetadata', { threadId, ...args });
      await refreshThreads();
    } catch (err) {
      setBanner(`Could not change the metadata: ${errorMessage(err)}`);
    }
  };
  const add = (e: FormEvent) => {
    e.preventDefault();
    if (!key.trim()) return;
    void change({ set: { [key.trim()]: value } });
    setKey('');
    setValue('');
  };
  return (
    <aside className="thread-info" aria-label="Thread info" data-testid="thread-info">
      <header>
        <h2>Thread info</h2>
        <button type="button" onClick={onClose} aria-label="Close thread info">
          Close
        </button>
      </header>
      <dl className="thread-meta" data-testid="thread-meta">
        {Object.entries(metadata).map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
            <button
              type="button"
              onClick={() => void change({ remove: [k] })}
              aria-label={`Remove ${k}`}
            >
              Remove
            </button>
          </div>
        ))}
      </dl>
      {Object.keys(metadata).length === 0 && <p className="muted">No metadata yet.</p>}
      <form onSubmit={add} className="thread-meta-add">
        <input
          value={key}
          onChange={(e) => setKey(e.target.value)}
          placeholder="key"
          aria-label="Metadata key"
          maxLength={100}
        />
        <input
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder="value"
          aria-label="Metadata value"
          maxLength={2000}
        />
        <button type="submit" disabled={!key.trim()}>
          Add
        </button>
      </form>
    </aside>
  );
}

import { useEffect, useMemo, useRef, useState } from 'react';
import type { ThreadSummary } from '../../../shared/types/index.ts';
import { call } from '../../ipc/client.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { ThreadItem } from './ThreadItem.tsx';

function baseName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/** Workspace picker, thread search, new thread and the thread list. */
export function Sidebar() {
  const threads = useWorkbenchStore((s) => s.threads);
  const activeId = useWorkbenchStore((s) => s.activeThreadId);
  const running = useWorkbenchStore((s) => s.chat.threads);
  const search = useWorkbenchStore((s) => s.search);
  const setSearch = useWorkbenchStore((s) => s.setSearch);
  const openThread = useWorkbenchStore((s) => s.openThread);
  const workspace = useWorkbenchStore((s) => s.workspace);
  const openWorkspace = useWorkbenchStore((s) => s.openWorkspace);
  const canPick = useWorkbenchStore((s) => s.app?.canPickFolder ?? false);
  const searchFocus = useWorkbenchStore((s) => s.searchFocus);
  const searchRef = useRef<HTMLInputElement>(null);
  const [typing, setTyping] = useState(false);
  const [folder, setFolder] = useState('');

  useEffect(() => {
    if (searchFocus) searchRef.current?.focus();
  }, [searchFocus]);

  // Titles filter at once; the server then also matches message text (debounced).
  const [found, setFound] = useState<{ q: string; ids: Set<string> } | null>(null);
  useEffect(() => {
    const q = search.trim();
    if (!q) return;
    const timer = setTimeout(() => {
      void call('threads.list', { search: q, workspace: workspace.path || undefined })
        .then((r: ThreadSummary[]) => setFound({ q, ids: new Set(r.map((t) => t.thread_id)) }))
        .catch(() => undefined);
    }, 200);
    return () => clearTimeout(timer);
  }, [search, workspace.path]);

  const visible = useMemo(() => {
    const q = search.trim().toLowerCase();
    const mine = threads.filter((t) => !workspace.path || t.workspace === workspace.path);
    if (!q) return mine;
    const serverHits = found && found.q.toLowerCase() === q ? found.ids : undefined;
    return mine.filter((t) => t.title.toLowerCase().includes(q) || serverHits?.has(t.thread_id));
  }, [threads, search, workspace.path, found]);

  return (
    <nav className="sidebar" aria-label="Threads">
      <div className="workspace" data-testid="workspace">
        <div className="workspace-label">Workspace</div>
        <div className="workspace-path" title={workspace.path} data-testid="workspace-path">
          {baseName(workspace.path) || '—'}
        </div>
        {typing ? (
          <form
            className="folder-form"
            onSubmit={(e) => {
              e.preventDefault();
              void openWorkspace(folder.trim()).then(() => setTyping(false));
            }}
          >
            <input autoFocus value={folder} onChange={(e) => setFolder(e.target.value)} placeholder="/path/to/project" aria-label="Folder path" list="recent-workspaces" />
            <datalist id="recent-workspaces">
              {workspace.recent.map((r) => (
                <option key={r} value={r} />
              ))}
            </datalist>
          </form>
        ) : (
          <button type="button" className="link-button" data-testid="open-folder" onClick={() => (canPick ? void openWorkspace() : setTyping(true))}>
            Open folder…
          </button>
        )}
        {workspace.recent.filter((r) => r !== workspace.path).length > 0 && (
          <ul className="recent" aria-label="Recent workspaces" data-testid="recent-workspaces">
            {workspace.recent
              .filter((r) => r !== workspace.path)
              .slice(0, 4)
              .map((r) => (
                <li key={r}>
                  <button type="button" title={r} onClick={() => void openWorkspace(r)}>
                    ↺ {baseName(r)}
                  </button>
                </li>
              ))}
          </ul>
        )}
      </div>
      <button type="button" className="primary new-thread" onClick={() => void openThread(null)} data-testid="new-thread" title="New thread (Ctrl+N)">
        + New thread
      </button>
      <input
        ref={searchRef}
        className="search"
        type="search"
        placeholder="Search threads (Ctrl+K)"
        aria-label="Search threads"
        data-testid="thread-search"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <ul className="thread-list" data-testid="thread-list">
        {visible.map((t) => (
          <li key={t.thread_id}>
            <ThreadItem thread={t} active={t.thread_id === activeId} running={Boolean(running[t.thread_id]?.running)} />
          </li>
        ))}
        {visible.length === 0 && <li className="muted empty-list">{search ? 'No thread matches.' : 'No threads yet.'}</li>}
      </ul>
    </nav>
  );
}

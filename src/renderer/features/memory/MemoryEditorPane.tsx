import { lazy, Suspense, type KeyboardEvent } from 'react';
import { useWorkbenchStore } from '../../stores/store.ts';
import type { MemoryScope } from '../../stores/slices/memory-slice.ts';
import { ConflictBar } from './ConflictBar.tsx';
import { estimateTokens, isDirty } from './memory-model.ts';

const MonacoEditor = lazy(() => import('../../components/MonacoEditor.tsx'));

/** One AGENTS.md in Monaco: dirty marker, token estimate, Ctrl/Cmd+S, conflicts and external edits. */
export function MemoryEditorPane({ scope }: { scope: MemoryScope }) {
  const editor = useWorkbenchStore((s) => s.memoryEditors[scope]);
  const edit = useWorkbenchStore((s) => s.editMemory);
  const save = useWorkbenchStore((s) => s.saveMemory);
  const resolve = useWorkbenchStore((s) => s.resolveMemory);
  if (!editor) return <p className="muted">Loading…</p>;
  const dirty = isDirty(editor);
  const onKey = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 's') {
      e.preventDefault();
      e.stopPropagation();
      void save(scope);
    }
  };
  return (
    <div className="memory-pane" onKeyDownCapture={onKey} data-testid={`memory-pane-${scope}`}>
      <div className="panel-toolbar">
        <span className="mono path" title={editor.doc.path} data-testid="memory-path">
          {editor.doc.path}
        </span>
        {dirty && (
          <span
            className="dirty-dot"
            title="Unsaved changes"
            aria-label="Unsaved changes"
            data-testid="memory-dirty"
          >
            ●
          </span>
        )}
      </div>
      <div className="panel-toolbar">
        <span className="muted" data-testid="memory-tokens">
          ≈ {estimateTokens(editor.draft).toLocaleString()} tokens
        </span>
        {!editor.doc.exists && <span className="badge">new file — saving creates it</span>}
        <span className="spacer" />
        <button
          type="button"
          className="primary"
          disabled={!dirty || editor.saving || Boolean(editor.conflict)}
          onClick={() => void save(scope)}
          data-testid="memory-save"
          title="Save (Ctrl/Cmd+S)"
        >
          {editor.saving ? 'Saving…' : 'Save'}
        </button>
      </div>
      {editor.external && !editor.conflict && (
        <div className="warning external" role="status" data-testid="memory-external">
          <span>
            This file changed on disk (the agent may have edited it) while you have unsaved edits.
          </span>
          <div className="inline">
            <button
              type="button"
              onClick={() => resolve(scope, 'theirs')}
              data-testid="memory-reload"
            >
              Reload from disk
            </button>
            <button type="button" onClick={() => resolve(scope, 'mine')}>
              Keep my edits
            </button>
          </div>
        </div>
      )}
      {editor.conflict && (
        <ConflictBar
          title="Not saved: the file changed on disk since you opened it."
          theirs={editor.conflict.content}
          mine={editor.draft}
          mineLabel="Keep mine (overwrite)"
          theirsLabel="Use theirs (discard my edits)"
          onChoose={(c) => {
            resolve(scope, c);
            if (c === 'mine') void useWorkbenchStore.getState().saveMemory(scope);
          }}
        />
      )}
      {!editor.conflict && (
        <Suspense fallback={<p className="muted">Loading editor…</p>}>
          <MonacoEditor
            value={editor.draft}
            language="markdown"
            height="calc(100vh - 250px)"
            onChange={(v) => edit(scope, v)}
          />
        </Suspense>
      )}
    </div>
  );
}

/** A profile's script hooks in Monaco: save (Ctrl/Cmd+S) with a conflict check, close asks first (docs/agents.md). */
import { lazy, Suspense, type KeyboardEvent } from 'react';
import { confirmDiscard } from '../../components/confirm-discard.ts';
import { ConflictBar } from '../memory/ConflictBar.tsx';
import { useAgentScript } from './agent-script-store.ts';

const MonacoEditor = lazy(() => import('../../components/MonacoEditor.tsx'));

/** The open profile script, if any. */
export function AgentScriptEditor() {
  const editor = useAgentScript((s) => s.editor);
  const error = useAgentScript((s) => s.error);
  const { edit, save, resolve, open } = useAgentScript.getState();
  if (!editor)
    return error ? (
      <p className="error-text" role="alert">
        {error}
      </p>
    ) : null;
  const dirty = editor.draft !== editor.content;
  const onKey = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 's') {
      e.preventDefault();
      e.stopPropagation();
      void save();
    }
  };
  return (
    <section onKeyDownCapture={onKey} data-testid="agent-script-editor">
      <div className="panel-toolbar">
        <span className="muted small">Script of {editor.name}</span>
        <span className="path mono small" title={editor.path}>
          {editor.path}
        </span>
        {dirty && (
          <span className="dirty-dot" title="Unsaved changes" data-testid="agent-script-dirty">
            ●
          </span>
        )}
        <span className="spacer" />
        <button
          type="button"
          className="primary"
          disabled={!dirty || editor.saving || Boolean(editor.conflict)}
          onClick={() => void save()}
          data-testid="agent-script-save"
          title="Save (Ctrl/Cmd+S)"
        >
          {editor.saving ? 'Saving…' : 'Save script'}
        </button>
        <button
          type="button"
          onClick={() => confirmDiscard(dirty, 'the script') && void open(null)}
          data-testid="agent-script-close"
        >
          Close
        </button>
      </div>
      {editor.inert && (
        <p className="warn-text small" data-testid="agent-script-inert">
          This script is in the workspace: you can edit it, but it will not run until the workspace
          is trusted.
        </p>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {editor.conflict ? (
        <ConflictBar
          title="Not saved: the script changed on disk since you opened it."
          theirs={editor.conflict.content}
          mine={editor.draft}
          language="typescript"
          mineLabel="Keep mine (overwrite)"
          theirsLabel="Use theirs (discard my edits)"
          onChoose={(c) => {
            resolve(c);
            if (c === 'mine') void useAgentScript.getState().save();
          }}
        />
      ) : (
        <Suspense fallback={<p className="muted">Loading editor…</p>}>
          <MonacoEditor value={editor.draft} language="typescript" height={320} onChange={edit} />
        </Suspense>
      )}
    </section>
  );
}

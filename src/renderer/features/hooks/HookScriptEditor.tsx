/** The script of an executable hook in Monaco: save (Ctrl/Cmd+S) with a conflict check, close asks first. */
import { lazy, Suspense, type KeyboardEvent } from 'react';
import { confirmDiscard } from '../../components/confirm-discard.ts';
import { ConflictBar } from '../memory/ConflictBar.tsx';
import { useHookScript } from './hook-script-store.ts';

const MonacoEditor = lazy(() => import('../../components/MonacoEditor.tsx'));

/** A language for Monaco from the script's name or shebang. */
function languageOf(path: string, content: string): string {
  const first = content.split('\n', 1)[0] ?? '';
  if (/\.py$/.test(path) || /python/.test(first)) return 'python';
  if (/\.(m?js|cjs)$/.test(path) || /\bnode\b/.test(first)) return 'javascript';
  if (/\.ts$/.test(path)) return 'typescript';
  return 'shell';
}

/** The open hook script, if any. */
export function HookScriptEditor() {
  const editor = useHookScript((s) => s.editor);
  const error = useHookScript((s) => s.error);
  const { edit, save, resolve, open } = useHookScript.getState();
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
    <section className="skill-editor" onKeyDownCapture={onKey} data-testid="hook-script-editor">
      <div className="panel-toolbar">
        <span className="path mono" title={editor.path}>
          {editor.path}
        </span>
        {dirty && (
          <span className="dirty-dot" title="Unsaved changes" data-testid="hook-script-dirty">
            ●
          </span>
        )}
        <button
          type="button"
          className="primary"
          disabled={!dirty || editor.saving || Boolean(editor.conflict)}
          onClick={() => void save()}
          data-testid="hook-script-save"
          title="Save (Ctrl/Cmd+S)"
        >
          {editor.saving ? 'Saving…' : 'Save'}
        </button>
        <button
          type="button"
          onClick={() => confirmDiscard(dirty, 'the hook script') && void open(null)}
          data-testid="hook-script-close"
        >
          Close
        </button>
      </div>
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
          language={languageOf(editor.path, editor.draft)}
          mineLabel="Keep mine (overwrite)"
          theirsLabel="Use theirs (discard my edits)"
          onChoose={(c) => {
            resolve(c);
            if (c === 'mine') void useHookScript.getState().save();
          }}
        />
      ) : (
        <Suspense fallback={<p className="muted">Loading editor…</p>}>
          <MonacoEditor
            value={editor.draft}
            language={languageOf(editor.path, editor.draft)}
            height={320}
            onChange={edit}
          />
        </Suspense>
      )}
    </section>
  );
}

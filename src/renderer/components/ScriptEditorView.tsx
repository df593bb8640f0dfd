/**
 * One script file in Monaco, for the stores of `stores/script-editor-store.ts`: save (Ctrl/Cmd+S)
 * with a conflict check, close asks before dropping edits.
 */
import { lazy, Suspense, type KeyboardEvent, type ReactNode } from 'react';
import type { StoreApi, UseBoundStore } from 'zustand';
import { confirmDiscard } from './confirm-discard.ts';
import { ConflictBar } from '../features/memory/ConflictBar.tsx';
import type { ScriptEditorState, ScriptOnDisk } from '../stores/script-editor-store.ts';

const MonacoEditor = lazy(() => import('./MonacoEditor.tsx'));

interface ScriptEditorViewProps<S extends ScriptOnDisk & { path: string }, K> {
  store: UseBoundStore<StoreApi<ScriptEditorState<S, K>>>;
  /** Prefix of the test ids: `<prefix>-editor`, `-dirty`, `-save`, `-close`. */
  testId: string;
  language(script: S & { draft: string }): string;
  /** What the discard question calls it ("the hook script"). */
  what: string;
  saveLabel?: string;
  className?: string;
  /** Shown before the path in the toolbar. */
  label?(script: S): ReactNode;
  /** Shown under the toolbar. */
  note?(script: S): ReactNode;
}

/** The open script of `store`, if any. */
export function ScriptEditorView<S extends ScriptOnDisk & { path: string }, K>(
  p: ScriptEditorViewProps<S, K>,
) {
  const editor = p.store((s) => s.editor);
  const error = p.store((s) => s.error);
  const { edit, save, resolve, open } = p.store.getState();
  if (!editor)
    return error ? (
      <p className="error-text" role="alert">
        {error}
      </p>
    ) : null;
  const dirty = editor.draft !== editor.content;
  const language = p.language(editor);
  const onKey = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 's') {
      e.preventDefault();
      e.stopPropagation();
      void save();
    }
  };
  return (
    <section className={p.className} onKeyDownCapture={onKey} data-testid={`${p.testId}-editor`}>
      <div className="panel-toolbar">
        {p.label?.(editor)}
        <span className="path mono" title={editor.path}>
          {editor.path}
        </span>
        {dirty && (
          <span className="dirty-dot" title="Unsaved changes" data-testid={`${p.testId}-dirty`}>
            ●
          </span>
        )}
        <button
          type="button"
          className="primary"
          disabled={!dirty || editor.saving || Boolean(editor.conflict)}
          onClick={() => void save()}
          data-testid={`${p.testId}-save`}
          title="Save (Ctrl/Cmd+S)"
        >
          {editor.saving ? 'Saving…' : (p.saveLabel ?? 'Save')}
        </button>
        <button
          type="button"
          onClick={() => confirmDiscard(dirty, p.what) && void open(null)}
          data-testid={`${p.testId}-close`}
        >
          Close
        </button>
      </div>
      {p.note?.(editor)}
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
          language={language}
          mineLabel="Keep mine (overwrite)"
          theirsLabel="Use theirs (discard my edits)"
          onChoose={(c) => {
            resolve(c);
            if (c === 'mine') void p.store.getState().save();
          }}
        />
      ) : (
        <Suspense fallback={<p className="muted">Loading editor…</p>}>
          <MonacoEditor value={editor.draft} language={language} height={320} onChange={edit} />
        </Suspense>
      )}
    </section>
  );
}

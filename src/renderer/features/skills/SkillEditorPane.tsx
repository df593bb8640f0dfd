import { lazy, Suspense, useMemo, type KeyboardEvent } from 'react';
import { ConflictBar } from '../memory/ConflictBar.tsx';
import { confirmDiscard } from '../../components/confirm-discard.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { catalogLine } from './catalog-line.ts';
import { folderOf, validateSkill } from './validate-skill.ts';

const MonacoEditor = lazy(() => import('../../components/MonacoEditor.tsx'));

/** The open SKILL.md: Monaco, live frontmatter checks, the catalog line, save with conflict check. */
export function SkillEditorPane() {
  const editor = useWorkbenchStore((s) => s.skillEditor);
  const edit = useWorkbenchStore((s) => s.editSkill);
  const save = useWorkbenchStore((s) => s.saveSkill);
  const resolve = useWorkbenchStore((s) => s.resolveSkill);
  const close = useWorkbenchStore((s) => s.openSkill);
  const draft = editor?.draft ?? '';
  const path = editor?.file.path ?? '';
  const check = useMemo(() => validateSkill(draft, folderOf(path)), [draft, path]);
  if (!editor) return null;
  const dirty = editor.draft !== editor.file.content;
  const errors = check.problems.filter((p) => p.severity === 'error');
  const onKey = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 's') {
      e.preventDefault();
      e.stopPropagation();
      void save();
    }
  };
  return (
    <section className="skill-editor" onKeyDownCapture={onKey} data-testid="skill-editor">
      <div className="panel-toolbar">
        <span className="path" title={path}>
          Editing <strong>{folderOf(path)}/SKILL.md</strong>
        </span>
        {dirty && (
          <span className="dirty-dot" title="Unsaved changes" data-testid="skill-dirty">
            ●
          </span>
        )}
        <button
          type="button"
          className="primary"
          disabled={!dirty || editor.saving || Boolean(editor.conflict)}
          onClick={() => void save()}
          data-testid="skill-save"
          title="Save (Ctrl/Cmd+S)"
        >
          {editor.saving ? 'Saving…' : 'Save'}
        </button>
        <button
          type="button"
          onClick={() => confirmDiscard(dirty, 'this skill') && void close(null)}
          data-testid="skill-close"
        >
          Close
        </button>
      </div>
      <ul className="problems" data-testid="skill-problems">
        {check.problems.map((p) => (
          <li key={p.message} className={p.severity === 'error' ? 'error-text' : 'warn-text'}>
            {p.severity === 'error' ? '✕' : '!'} {p.line ? `line ${p.line}: ` : ''}
            {p.message}
          </li>
        ))}
        {check.problems.length === 0 && <li className="ok-text">✓ Frontmatter is valid</li>}
      </ul>
      <div className="catalog-line" data-testid="skill-catalog-line">
        <span className="label">The model sees</span>
        <code>
          {errors.length
            ? '(not listed until the errors are fixed)'
            : catalogLine(check.name!, check.description!, path)}
        </code>
      </div>
      {editor.conflict ? (
        <ConflictBar
          title="Not saved: SKILL.md changed on disk since you opened it."
          theirs={editor.conflict.content}
          mine={editor.draft}
          mineLabel="Keep mine (overwrite)"
          theirsLabel="Use theirs"
          onChoose={(c) => {
            resolve(c);
            if (c === 'mine') void useWorkbenchStore.getState().saveSkill();
          }}
        />
      ) : (
        <Suspense fallback={<p className="muted">Loading editor…</p>}>
          <MonacoEditor value={draft} language="markdown" height={300} onChange={edit} />
        </Suspense>
      )}
    </section>
  );
}

/** The script of an executable hook in Monaco: save (Ctrl/Cmd+S) with a conflict check, close asks first. */
import { ScriptEditorView } from '../../components/ScriptEditorView.tsx';
import { useHookScript } from './hook-script-store.ts';

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
  return (
    <ScriptEditorView
      store={useHookScript}
      testId="hook-script"
      className="skill-editor"
      what="the hook script"
      language={(s) => languageOf(s.path, s.draft)}
    />
  );
}

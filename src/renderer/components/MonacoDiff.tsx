import { monaco } from './monaco-setup.ts';
import { useEffect, useRef } from 'react';
import { useMonacoTheme } from './use-monaco-theme.ts';

export interface MonacoDiffProps {
  before: string;
  after: string;
  /** The file's path: picks the language. */
  path?: string;
  height?: number | string;
  sideBySide?: boolean;
}

const LANGUAGES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  json: 'json',
  md: 'markdown',
  css: 'css',
  html: 'html',
  py: 'python',
  go: 'go',
  rs: 'rust',
  sh: 'shell',
  yml: 'yaml',
  yaml: 'yaml',
};

/** The language Monaco colours a path with (plain text when unknown). */
export function languageOf(path = ''): string {
  return LANGUAGES[path.split('.').pop()?.toLowerCase() ?? ''] ?? 'plaintext';
}

/**
 * A read-only Monaco diff (before on the left or above, after on the right or below); load it with
 * React.lazy. Built on monaco's own diff editor: this component creates and disposes the editor and
 * both models itself, the editor first, so no model is ever disposed while the widget holds it.
 */
export default function MonacoDiff({
  before,
  after,
  path,
  height = 320,
  sideBySide = false,
}: MonacoDiffProps) {
  const theme = useMonacoTheme();
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const language = languageOf(path);
    const original = monaco.editor.createModel(before, language);
    const modified = monaco.editor.createModel(after, language);
    const editor = monaco.editor.createDiffEditor(host.current, {
      readOnly: true,
      originalEditable: false,
      renderSideBySide: sideBySide,
      minimap: { enabled: false },
      fontSize: 12,
      wordWrap: 'on',
      automaticLayout: true,
      scrollBeyondLastLine: false,
    });
    editor.setModel({ original, modified });
    return () => {
      editor.dispose();
      original.dispose();
      modified.dispose();
    };
  }, [before, after, path, sideBySide]);
  useEffect(() => monaco.editor.setTheme(theme), [theme]);
  return (
    <div className="monaco-frame" data-testid="monaco-diff">
      <div ref={host} style={{ height, width: '100%' }} />
    </div>
  );
}

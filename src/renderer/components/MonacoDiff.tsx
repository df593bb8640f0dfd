import './monaco-setup.ts';
import { useEffect, useRef } from 'react';
import { DiffEditor, type DiffOnMount } from '@monaco-editor/react';
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
 * React.lazy. The models are released by this component, after the editor let go of them, so
 * unmounting never disposes a model the diff widget still holds.
 */
export default function MonacoDiff({
  before,
  after,
  path,
  height = 320,
  sideBySide = false,
}: MonacoDiffProps) {
  const theme = useMonacoTheme();
  const editor = useRef<Parameters<DiffOnMount>[0] | null>(null);
  useEffect(
    () => () => {
      const e = editor.current;
      const models = e?.getModel();
      e?.setModel(null);
      models?.original.dispose();
      models?.modified.dispose();
    },
    [],
  );
  return (
    <div className="monaco-frame" data-testid="monaco-diff">
      <DiffEditor
        original={before}
        modified={after}
        language={languageOf(path)}
        height={height}
        theme={theme}
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        onMount={(e) => (editor.current = e)}
        options={{
          readOnly: true,
          renderSideBySide: sideBySide,
          minimap: { enabled: false },
          fontSize: 12,
          wordWrap: 'on',
          automaticLayout: true,
          scrollBeyondLastLine: false,
        }}
      />
    </div>
  );
}

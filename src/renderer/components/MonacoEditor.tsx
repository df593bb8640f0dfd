import './monaco-setup.ts';
import Editor from '@monaco-editor/react';
import { useMonacoTheme } from './use-monaco-theme.ts';

export interface MonacoEditorProps {
  value: string;
  language?: string;
  readOnly?: boolean;
  height?: number | string;
  onChange?: (value: string) => void;
}

/** The one Monaco wrapper (value in, onChange out); load it with React.lazy. */
export default function MonacoEditor({
  value,
  language = 'plaintext',
  readOnly = false,
  height = 320,
  onChange,
}: MonacoEditorProps) {
  const theme = useMonacoTheme();
  return (
    <div className="monaco-frame" data-testid="monaco-editor">
      <Editor
        value={value}
        language={language}
        height={height}
        theme={theme}
        onChange={(v) => onChange?.(v ?? '')}
        options={{
          readOnly,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          fontSize: 12.5,
          wordWrap: 'on',
          automaticLayout: true,
        }}
      />
    </div>
  );
}

import '../../components/monaco-setup.ts';
import { DiffEditor } from '@monaco-editor/react';
import { useMonacoTheme } from '../../components/use-monaco-theme.ts';

export interface ConflictDiffProps {
  theirs: string;
  mine: string;
  language?: string;
  height?: number | string;
}

/** Side-by-side Monaco diff of the file on disk (left, theirs) and the unsaved edits (right, mine); lazy-load it. */
export default function ConflictDiff({
  theirs,
  mine,
  language = 'markdown',
  height = 300,
}: ConflictDiffProps) {
  const theme = useMonacoTheme();
  return (
    <div className="monaco-frame" data-testid="conflict-diff">
      <DiffEditor
        original={theirs}
        modified={mine}
        language={language}
        height={height}
        theme={theme}
        options={{
          readOnly: true,
          renderSideBySide: true,
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

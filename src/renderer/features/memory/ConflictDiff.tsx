import '../../components/monaco-setup.ts';
import { useEffect, useRef } from 'react';
import { DiffEditor, type DiffOnMount } from '@monaco-editor/react';
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
  // The wrapper disposes its models before the diff widget lets go of them, which Monaco reports as
  // "TextModel got disposed before DiffEditorWidget model got reset". Keep the models, detach the
  // widget first on unmount, then dispose them.
  const mounted = useRef<Parameters<DiffOnMount>[0] | null>(null);
  useEffect(
    () => () => {
      const editor = mounted.current;
      if (!editor) return;
      const model = editor.getModel();
      editor.setModel(null);
      model?.original.dispose();
      model?.modified.dispose();
    },
    [],
  );
  return (
    <div className="monaco-frame" data-testid="conflict-diff">
      <DiffEditor
        original={theirs}
        modified={mine}
        language={language}
        height={height}
        theme={theme}
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        onMount={(editor) => (mounted.current = editor)}
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

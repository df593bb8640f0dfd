/** A profile's script hooks in Monaco: save (Ctrl/Cmd+S) with a conflict check, close asks first (docs/agents.md). */
import { ScriptEditorView } from '../../components/ScriptEditorView.tsx';
import { useAgentScript } from './agent-script-store.ts';

/** The open profile script, if any. */
export function AgentScriptEditor() {
  return (
    <ScriptEditorView
      store={useAgentScript}
      testId="agent-script"
      what="the script"
      saveLabel="Save script"
      language={() => 'typescript'}
      label={(s) => <span className="muted small">Script of {s.name}</span>}
      note={(s) =>
        s.inert && (
          <p className="warn-text small" data-testid="agent-script-inert">
            This script is in the workspace: you can edit it, but it will not run until the
            workspace is trusted.
          </p>
        )
      }
    />
  );
}

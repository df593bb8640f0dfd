/** The Agents panel's script editor state: the script a profile names (by profile name), the draft, a save conflict. */
import type { AgentScript } from '../../../shared/ipc/contract.ts';
import { call } from '../../ipc/client.ts';
import { createScriptEditorStore } from '../../stores/script-editor-store.ts';

export const useAgentScript = createScriptEditorStore<AgentScript, string>({
  read: (name) => call('agents.readScript', { name }),
  write: (s, content) =>
    call('agents.writeScript', { name: s.name, content, baseVersion: s.version }),
});

/** True when the open script has edits not saved yet. */
export function scriptDirty(): boolean {
  const e = useAgentScript.getState().editor;
  return Boolean(e && e.draft !== e.content);
}

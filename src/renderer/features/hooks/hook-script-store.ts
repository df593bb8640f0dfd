/** The hook script editor's state: the open script of a hook (by id), the draft, a save conflict. */
import type { HookScript } from '../../../shared/ipc/contract.ts';
import { call } from '../../ipc/client.ts';
import { createScriptEditorStore } from '../../stores/script-editor-store.ts';

export const useHookScript = createScriptEditorStore<HookScript, string>({
  read: (id) => call('hooks.readScript', { id }),
  write: (s, content) => call('hooks.writeScript', { id: s.id, content, baseVersion: s.version }),
});

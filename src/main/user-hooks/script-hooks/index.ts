/**
 * Script hooks (docs/agents.md#script-hooks-create--next): a profile's TypeScript `Create` / `Next`,
 * run in a child process, as a pipeline Hook.
 */
export { createScriptHook, scriptHookId, type ScriptHookOptions } from './script-hook.ts';
export { profileScriptHooks, scriptHookInfo, type ProfileScriptOptions } from './profile-script.ts';
export { SCRIPT_DEADLINE_MS } from './run-script.ts';

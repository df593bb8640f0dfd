/**
 * A profile's `script:` in the pipeline and the hooks panel (docs/agents.md#script-hooks-create--next):
 * one hook `script:<profile>`, run only when the workspace is trusted (for a script inside it), user
 * hooks are on and the hook is not switched off; otherwise listed as inert with the reason.
 */
import { existsSync } from 'node:fs';
import { relative, isAbsolute } from 'node:path';
import type { HookInfo, WorkbenchSettings } from '../../../shared/types/index.ts';
import type { AgentProfile } from '../../agents/profile.ts';
import type { Hook } from '../../pipeline/hook.ts';
import type { HookRunStore } from '../../store/types.ts';
import { createScriptHook, scriptHookId } from './script-hook.ts';
import { SCRIPT_DEADLINE_MS } from './run-script.ts';

export interface ProfileScriptOptions {
  profile: AgentProfile;
  workspace: string;
  trusted: boolean;
  /** `--no-hooks` or settings.disableAllHooks. */
  noHooks?: boolean;
  settings: WorkbenchSettings;
  hookRuns?: HookRunStore;
}

export interface ProfileScript {
  hooks: Hook[];
  infos: HookInfo[];
  diagnostics: string[];
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The panel's view of the profile's script; undefined when the profile has none. */
export function scriptHookInfo(o: ProfileScriptOptions): HookInfo | undefined {
  const path = o.profile.script;
  if (!path) return undefined;
  const id = scriptHookId(o.profile.name);
  const workspaceScript = inside(o.workspace, path);
  const trusted = !workspaceScript || o.trusted;
  const override = o.settings.hook_overrides[id];
  const problem = !existsSync(path)
    ? 'script file not found'
    : !trusted
      ? 'workspace not trusted (run `workbench trust DIR`)'
      : undefined;
  return {
    id,
    name: id,
    source: workspaceScript ? 'workspace' : 'user',
    dialect: 'script',
    events: ['Create', 'Next'],
    enabled: override?.enabled !== false && !o.noHooks,
    trusted,
    path,
    timeout_ms: override?.timeout_ms ?? SCRIPT_DEADLINE_MS,
    fail_mode: 'open',
    ...(problem ? { problem } : {}),
  };
}

/** The script hook of the run's profile. Contract: never throws; an inert script is a diagnostic. */
export function profileScriptHooks(o: ProfileScriptOptions): ProfileScript {
  const info = scriptHookInfo(o);
  if (!info) return { hooks: [], infos: [], diagnostics: [] };
  if (info.problem || !info.enabled) {
    const diagnostics =
      info.problem && info.enabled ? [`script ${info.path} not run: ${info.problem}`] : [];
    return { hooks: [], infos: [info], diagnostics };
  }
  const hook = createScriptHook({
    scriptPath: info.path!,
    profileName: o.profile.name,
    source: info.source,
    deadlineMs: info.timeout_ms,
    hookRuns: o.hookRuns,
  });
  return { hooks: [hook], infos: [info], diagnostics: [] };
}

/** `listUserHooks`: every user hook of both dialects as HookInfo, in pipeline order, problems included. */
import type { HookInfo, WorkbenchSettings } from '../../shared/types/index.ts';
import type { MiddlewareInfo } from '../pipeline/hook.ts';
import { loadClaudeHooks, readClaudeSettingsFiles, type ClaudeHandler } from './claude-config.ts';
import { discoverExecutableHooks, type ExecutableHookEntry } from './executable-discovery.ts';
import { executableRef } from './executable-hooks.ts';
import { claudeRef } from './claude-hooks.ts';
import type { HookRunStore } from '../store/types.ts';
import { HOOK_HEALTH_RUNS } from '../store/hook-run-store.ts';
import { agentHandlers } from './agent-hooks.ts';
import { skillHandlers } from './skill-hooks.ts';

/** Where the user hooks sit in the pipeline, as the hooks panel lists it (one entry for both formats). */
export const userHooksInfo: MiddlewareInfo = {
  name: 'user-hooks',
  description: 'Runs your executable hooks, Claude Code settings hooks and the profile’s script hook',
  phases: ['user_message_send', 'before_agent', 'modify_request', 'wrap_model_call', 'after_turn', 'agent_stop', 'wrap_tool_call', 'permission_request', 'permission_denied', 'notification', 'elicitation', 'elicitation_result', 'after_tool_batch', 'instructions_loaded', 'compact', 'after_agent'],
};

export interface ListUserHooksOptions {
  workspace: string;
  home: string;
  settings: WorkbenchSettings;
  trusted: boolean;
  /** Where each hook's health is read from; without it no hook has one. */
  hookRuns?: HookRunStore;
}

export function executableInfo(e: ExecutableHookEntry, settings: WorkbenchSettings): HookInfo {
  const ref = executableRef(e, settings);
  const problem = e.problem ?? (e.shadowed ? 'shadowed by the workspace hook of the same name' : !e.trusted ? 'workspace not trusted (run `workbench trust DIR`)' : undefined);
  return {
    id: e.id,
    name: e.name,
    source: e.scope === 'workspace' ? 'workspace' : 'user',
    dialect: 'executable',
    events: e.event ? [e.event] : [],
    enabled: e.enabled && settings.hook_overrides[e.id]?.enabled !== false,
    trusted: e.trusted,
    path: e.path,
    timeout_ms: ref.timeoutMs,
    fail_mode: ref.failMode,
    ...(ref.sandbox ? { sandboxed: true } : {}),
    ...(ref.persistent ? { persistent: true } : {}),
    ...(problem ? { problem } : {}),
  };
}

export function claudeInfo(h: ClaudeHandler, settings: WorkbenchSettings): HookInfo {
  const problem = h.problem ?? (h.duplicate ? 'identical to a handler listed earlier (runs once)' : !h.trusted ? 'workspace not trusted (run `workbench trust DIR`)' : undefined);
  return {
    id: h.id,
    name: h.name,
    source: h.scope === 'workspace' ? 'claude-settings' : 'user',
    dialect: 'claude',
    events: [h.event],
    ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
    ...(h.if ? { condition: h.if.text } : {}),
    ...(h.skill ? { skill: h.skill } : {}),
    ...(h.once ? { once: true } : {}),
    enabled: h.enabled,
    trusted: h.trusted,
    path: h.file,
    command: h.http ? `POST ${h.command}` : h.prompt ? `asks the model: ${h.command}` : h.agent ? `an agent reads the workspace and judges: ${h.command}` : h.mcpTool ? `calls MCP tool ${h.command}` : h.args ? [h.command, ...h.args].join(' ') : h.command,
    timeout_ms: h.timeoutMs,
    fail_mode: claudeRef(h, settings).failMode,
    ...(h.sandbox ? { sandboxed: true } : {}),
    ...(problem ? { problem } : {}),
  };
}

/** Lists the user hooks. Contract: never runs a disabled hook or any hook of an untrusted workspace. */
export async function listUserHooks(opts: ListUserHooksOptions): Promise<HookInfo[]> {
  // The settings files are read once for the settings' handlers and the agents' both.
  const claudeSettings = await readClaudeSettingsFiles(opts.workspace, opts.home);
  const [executable, claude, agents, skills] = await Promise.all([
    discoverExecutableHooks(opts),
    loadClaudeHooks({ ...opts, claudeSettings }),
    agentHandlers({ ...opts, claudeSettings }),
    skillHandlers({ ...opts, claudeSettings }),
  ]);
  const infos = [
    ...executable.map((e) => executableInfo(e, opts.settings)),
    ...claude.handlers.map((h) => claudeInfo(h, opts.settings)),
    ...agents.map(({ agent, handler }) => ({ ...claudeInfo(handler, opts.settings), agent })),
    ...skills.map((h) => claudeInfo(h, opts.settings)),
  ];
  return opts.hookRuns ? withHealth(infos, opts.hookRuns) : infos;
}

/** The hooks with the outcomes of their last runs attached (a hook never run has no health). */
export function withHealth(infos: HookInfo[], hookRuns: HookRunStore): HookInfo[] {
  const health = hookRuns.health(
    infos.map((i) => i.id),
    HOOK_HEALTH_RUNS,
  );
  return infos.map((i) => (health.has(i.id) ? { ...i, health: health.get(i.id)! } : i));
}

/** Every hook in pipeline order: built-ins with the user hooks in place of the `user-hooks` entry. */
export function pipelineOrder(builtins: HookInfo[], user: HookInfo[]): HookInfo[] {
  const at = builtins.findIndex((b) => b.name === 'user-hooks');
  if (at < 0) return [...builtins, ...user];
  return [...builtins.slice(0, at + 1), ...user, ...builtins.slice(at + 1)];
}

/**
 * User hooks (docs/hooks.md): executable hooks (Kodelet's protocol) and Claude Code settings hooks
 * (settings files) as pipeline Hooks, plus workspace trust. `createUserHooks` is called once per run,
 * so discovery (and every `.disable` rename or settings change) is fresh for each run.
 */
import type { HookInfo, WorkbenchSettings } from '../../shared/types/index.ts';
import type { Hook } from '../pipeline/hook.ts';
import type { HookRunStore } from '../store/types.ts';
import type { PermissionRule } from '../middleware/permission-rules.ts';
import type { McpManager } from '../mcp/manager.ts';
import { startHookLauncher } from './launcher/launcher.ts';
import { hooksOfSkills } from './skill-hooks.ts';
import type { LoadSkillsResult } from '../skills/loader.ts';
import { isClaudeRunnable, loadClaudeHooks, type AgentHooks, type ReadSettingsFile } from './claude-config.ts';
import { createClaudeHooks } from './claude-hooks.ts';
import { claudeInfo, executableInfo } from './list.ts';
import { discoverExecutableHooks, isExecutableRunnable } from './executable-discovery.ts';
import { createExecutableHooks } from './executable-hooks.ts';
import { homedir } from 'node:os';
import { relative } from 'node:path';
import { isInside } from '../tools/path-guard.ts';
import type { OutsideProcess } from '../tools/program-files.ts';

export { createTrustStore, realPathOf, type TrustStore, type TrustedWorkspace } from './trust-store.ts';
export { listUserHooks, pipelineOrder, type ListUserHooksOptions } from './list.ts';
export { setExecutableHookEnabled, discoverExecutableHooks, type ExecutableHookEntry } from './executable-discovery.ts';
export { EXECUTABLE_EVENTS, type ExecutableEvent } from './executable-events.ts';
export { loadClaudeHooks, type ClaudeHandler } from './claude-config.ts';
export { CLAUDE_EVENTS, type ClaudeEvent } from './claude-events.ts';
export { runHookProcess, STDOUT_CAP_BYTES, STDERR_CAP_BYTES, type HookProcessResult, type HookProcessSpec } from './runner.ts';
export { transcriptPath } from './transcript.ts';

export interface CreateUserHooksOptions {
  workspace: string;
  home: string;
  settings: WorkbenchSettings;
  /** Workspace trusted (trust store or `--trust`): workspace-sourced hooks may run. */
  trusted: boolean;
  /** `--no-hooks`: no user hook runs (settings.disableAllHooks does the same). */
  noHooks?: boolean;
  hookRuns?: HookRunStore;
  /** The running agent's own frontmatter `hooks` (a subagent's, docs/agents.md). */
  agent?: AgentHooks;
  /** The Claude dialect's settings files as the run already read them (else they are read here). */
  claudeSettings?: readonly ReadSettingsFile[];
  /** What http hooks' headers may name (WorkbenchOptions.env). */
  variables?: Readonly<Record<string, string | undefined>>;
  /** The run's permission rules: agent handlers' own reads keep to them. */
  rules?: readonly PermissionRule[];
  /** The workbench's MCP servers (mcp_tool handlers). */
  mcp?: McpManager;
  /** The run's skills (loaded once for the pipeline): their frontmatter hooks join once a skill is read. */
  skills?: () => Promise<LoadSkillsResult>;
  /** The run's working directories: their skills' hooks need trust as the workspace's do. */
  workingDirs?: readonly string[];
}

export interface UserHooks {
  /** At most two Hooks: `executable-hooks` then `claude-hooks`, each present only when it has something to run. */
  hooks: Hook[];
  /** Every user hook individually, including the ones that will not run (and why). */
  infos: HookInfo[];
  diagnostics: string[];
  /** The processes this run's hooks start outside the sandbox (their programs are guarded). */
  processes: OutsideProcess[];
}

/**
 * Discovers the user hooks of both dialects and returns the pipeline Hooks for this run.
 * Contract: never rejects; with noHooks/disableAllHooks nothing is discovered by execution and
 * `hooks` is empty; workspace hooks are left out unless `trusted`.
 */
export async function createUserHooks(opts: CreateUserHooksOptions): Promise<UserHooks> {
  const off = Boolean(opts.noHooks) || opts.settings.disableAllHooks;
  // Off means off: not even `<hook> hook` runs. Still list the settings handlers (reading is harmless).
  const skillHooks = off || !opts.skills ? [] : hooksOfSkills((await opts.skills()).skills, opts.workspace, opts.workingDirs);
  const [executable, claude] = await Promise.all([
    off ? Promise.resolve([]) : discoverExecutableHooks(opts),
    loadClaudeHooks({ ...opts, skills: skillHooks }),
  ]);
  const infos = [...executable.map((e) => executableInfo(e, opts.settings)), ...claude.handlers.map((h) => claudeInfo(h, opts.settings))];
  const diagnostics = [...claude.diagnostics];
  for (const e of executable) if (e.problem && e.enabled && e.trusted) diagnostics.push(`hook ${e.path}: ${e.problem}`);
  const held = infos.filter((i) => !i.trusted && i.enabled).length;
  if (held && !off) {
    diagnostics.push(`${held} hook(s) of workspace ${opts.workspace} will not run until you trust it (workbench trust DIR, or --trust for one run)`);
  }
  if (off) return { hooks: [], infos: infos.map((i) => ({ ...i, enabled: false })), diagnostics, processes: [] };

  const hooks: Hook[] = [];
  // An executable hook is switched off by its `.disable` name, or (as a settings hook) by hook_overrides.
  const runnable = executable.filter((e) => isExecutableRunnable(e) && opts.settings.hook_overrides[e.id]?.enabled !== false);
  if (runnable.length) {
    const source = runnable.some((e) => e.scope === 'workspace') ? 'workspace' : 'user';
    hooks.push(createExecutableHooks({ entries: runnable, settings: opts.settings, hookRuns: opts.hookRuns }, source));
  }
  const runnableClaude = claude.handlers.filter(isClaudeRunnable);
  if (runnableClaude.length) {
    hooks.push(createClaudeHooks({ handlers: runnableClaude, settings: opts.settings, home: opts.home, hookRuns: opts.hookRuns, variables: opts.variables, rules: opts.rules, mcp: opts.mcp }, 'claude-settings'));
  }
  // The launcher that starts spawned hooks is started ahead of the first (docs/hooks.md#how-a-hook-is-started),
  // when a hook of this run spawns: an http, prompt, agent or mcp_tool handler runs no process.
  const spawning = runnableClaude.filter((h) => !h.http && !h.prompt && !h.agent && !h.mcpTool);
  if (spawning.length || runnable.some((e) => !e.persistent)) void startHookLauncher();
  const processes = spawning
    .filter((h) => !h.sandbox)
    .map((h) => ({
      proc: { command: h.command, args: h.args, shell: !h.args, cwd: opts.workspace },
      why: `is run outside the sandbox by a ${h.event} hook (${displayFile(h.file, opts.workspace)})`,
    }));
  return { hooks, infos, diagnostics, processes };
}

/** A settings, agent or skill file as a person knows it: relative to the workspace, or `~/…`. */
function displayFile(file: string, workspace: string): string {
  if (isInside(file, workspace)) return relative(workspace, file);
  const home = homedir();
  return isInside(file, home) ? `~/${relative(home, file)}` : file;
}

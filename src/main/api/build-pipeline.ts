/**
 * Builds the ordered hook list of one run: tracing (outermost) → todolist → subagents → user hooks →
 * permission rules → approval → filesystem → external tools → profile → skills → memory →
 * summarization (innermost around the model). Each built-in describes itself next to its factory;
 * this file only orders them. A built-in switched off in settings is left out.
 */
import type { ApprovalMode, HookInfo, WorkbenchSettings } from '../../shared/types/index.ts';
import type { Hook, MiddlewareInfo } from '../pipeline/hook.ts';
import type { AgentProfile } from '../agents/profile.ts';
import type { Database, HookRunStore } from '../store/types.ts';
import { approvalInfo, createApprovalHook, type ApprovalBroker } from '../middleware/approval.ts';
import { createTracingHook, tracingInfo } from '../middleware/tracing.ts';
import { createTodoListHook, todoListInfo } from '../middleware/todos.ts';
import { createSubagentsHook, subagentsInfo } from '../middleware/subagents.ts';
import { createFilesystemHook, filesystemInfo } from '../middleware/filesystem.ts';
import { createExternalToolsHook, externalToolsInfo } from '../middleware/external-tools.ts';
import type { McpManager } from '../mcp/manager.ts';
import { createProfileHook, profileInfo } from '../middleware/profile.ts';
import { createSkillsHook, skillsInfo } from '../middleware/skills.ts';
import { openAgentMemory, type AgentMemory } from '../agents/agent-memory.ts';
import { loadSkills, type LoadSkillsResult } from '../skills/loader.ts';
import { createMemoryHook, memoryInfo, type ThreadMemory } from '../middleware/memory.ts';
import { createSummarizationHook, summarizationInfo } from '../middleware/summarization.ts';
import { createUserHooks, type UserHooks } from '../user-hooks/index.ts';
import {
  createPermissionRulesHook,
  loadPermissionRules,
  permissionRulesInfo,
  profileDenyRules,
  type PermissionRule,
} from '../middleware/permission-rules.ts';
import {
  claudeSandboxRun,
  type ClaudeSandboxRun,
  type SandboxPathEntry,
} from '../middleware/claude-sandbox-settings.ts';
import { userHooksInfo } from '../user-hooks/list.ts';
import { workspaceWorkingDirs } from '../middleware/claude-working-dirs.ts';
import {
  readClaudeSettingsFiles,
  settingsEnv,
  type AgentHooks,
  type ReadSettingsFile,
} from '../user-hooks/claude-config.ts';
import { readsWorkingDirMemory } from '../memory/loader.ts';
import { isInside } from '../tools/path-guard.ts';
import { profileScriptHooks } from '../user-hooks/script-hooks/index.ts';
import type { OutsideProcess } from '../tools/program-files.ts';

export interface PipelineOptions {
  workspace: string;
  /** 0 for the run a person started, 1 for a subagent of it, and so on. */
  depth?: number;
  home: string;
  settings: WorkbenchSettings;
  profile: AgentProfile;
  trusted: boolean;
  noHooks: boolean;
  approvalMode: ApprovalMode;
  interactive: boolean;
  broker: ApprovalBroker;
  db: Database;
  hookRuns: HookRunStore;
  /** Subfolder memory and path rules each thread follows, kept across its runs (middleware/memory.ts). */
  threadMemory?: ThreadMemory;
  /** The subagents the `task` tool offers (docs/agents.md). */
  subagents?: ReadonlyArray<{ name: string; description: string }>;
  /** The workbench's MCP servers (absent: no MCP tools). */
  mcp?: McpManager;
  /** What http hooks' headers may name (WorkbenchOptions.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The run's own working directories (`--add-dir`), besides those the settings add. */
  addDirs?: readonly string[];
}

interface Builtin {
  info: MiddlewareInfo;
  /** A safety policy, not a convenience: never switched off (use approval mode 'auto' instead). */
  alwaysOn?: boolean;
  create(o: PipelineOptions, loaded: Loaded): Hook[];
}

/** What a run reads once for its built-ins. */
interface Loaded {
  user: UserHooks;
  rules: PermissionRule[];
  /** The `sandbox.filesystem` paths of the settings files, for the sandbox. */
  sandboxPaths: SandboxPathEntry[];
  /** The Claude dialect's settings files: hooks, permission rules and MCP servers read them. */
  claudeSettings: readonly ReadSettingsFile[];
  /** The run's skills, read once: the skills catalog and the skills' hooks share them. */
  skills: () => Promise<LoadSkillsResult>;
  /** Claude Code's `permissions.denyInsteadOfPrompting`: the file that sets it. */
  denyInsteadOfPromptingBy?: string;
  /** The running agent's memory (Claude Code's agent `memory`), when its profile has one. */
  agentMemory?: AgentMemory;
  /** Claude Code's settings `env` of the run (its `CLAUDE_CODE_*` switches are read from it too). */
  commandEnv: Record<string, string>;
}

/** The built-ins in pipeline order; `user-hooks` marks where the user hooks go. */
const PIPELINE: readonly Builtin[] = [
  { info: tracingInfo, create: () => [createTracingHook()] },
  { info: todoListInfo, create: () => [createTodoListHook()] },
  { info: subagentsInfo, create: (o) => [createSubagentsHook(o.subagents ?? [])] },
  { info: userHooksInfo, create: (_o, { user }) => user.hooks },
  {
    info: permissionRulesInfo,
    alwaysOn: true,
    create: (o, { rules, sandboxPaths }) => [
      createPermissionRulesHook(
        rules,
        o.profile.read_only ? { file: o.profile.source ?? `agent ${o.profile.name}` } : undefined,
        sandboxPaths,
      ),
    ],
  },
  {
    info: approvalInfo,
    alwaysOn: true,
    create: (o, { denyInsteadOfPromptingBy }) => [
      createApprovalHook({
        mode: o.approvalMode,
        broker: o.broker,
        interactive: o.interactive && !denyInsteadOfPromptingBy,
        denyInsteadOfPromptingBy,
      }),
    ],
  },
  { info: filesystemInfo, create: () => [createFilesystemHook()] },
  {
    info: externalToolsInfo,
    create: (o, { claudeSettings }) => [createExternalToolsHook({ mcp: o.mcp, claudeSettings })],
  },
  { info: profileInfo, create: (o) => [createProfileHook(o.profile)] },
  {
    info: skillsInfo,
    create: (o, { skills }) => [
      createSkillsHook({ home: o.home, load: skills, preload: o.profile.skills.preload }),
    ],
  },
  {
    info: memoryInfo,
    create: (o, { agentMemory, commandEnv }) => [
      createMemoryHook({
        home: o.home,
        extraPaths: o.profile.memory.paths,
        threadMemory: o.threadMemory,
        agentMemory,
        workingDirMemory: readsWorkingDirMemory(commandEnv),
      }),
    ],
  },
  {
    info: summarizationInfo,
    create: (o) => [
      createSummarizationHook({
        contextWindow: o.profile.context_window,
        compaction: o.profile.compaction,
        store: o.db.threads,
      }),
    ],
  },
];

const builtinHookId = (name: string): string => `builtin:${name}`;

/** Whether a built-in is on: everything is on unless switched off in settings. */
function builtinEnabled(settings: WorkbenchSettings, name: string): boolean {
  return settings.hook_overrides[builtinHookId(name)]?.enabled !== false;
}

/** The built-ins as the hooks panel and `workbench hooks list` show them, in pipeline order. */
export function builtinHookInfos(settings: WorkbenchSettings): HookInfo[] {
  return PIPELINE.map(({ info }) => ({
    id: builtinHookId(info.name),
    name: info.name,
    source: 'builtin',
    dialect: 'builtin',
    events: [...info.phases],
    enabled: builtinEnabled(settings, info.name),
    trusted: true,
    command: info.description,
  }));
}

/** The ids of built-ins that cannot be switched off. */
export const ALWAYS_ON_HOOKS: ReadonlySet<string> = new Set(
  PIPELINE.filter((b) => b.alwaysOn).map((b) => builtinHookId(b.info.name)),
);

export interface PipelineHooks {
  hooks: Hook[];
  userHookInfos: HookInfo[];
  diagnostics: string[];
  /** What Claude Code's `sandbox` block asks of the run (middleware/claude-sandbox-settings.ts). */
  claudeSandbox: ClaudeSandboxRun;
  /** The run's working directories besides the workspace: `--add-dir`, then those the settings add. */
  workingDirs: string[];
  /** The processes the run's hooks start outside the sandbox (tools/program-files.ts). */
  processes: OutsideProcess[];
  /** Claude Code's `permissions.denyInsteadOfPrompting`: nobody is asked in this run (the file that says so). */
  denyInsteadOfPromptingBy?: string;
  /** The running agent's memory folder (Claude Code's agent `memory`): its file tools write there. */
  agentMemoryDir?: string;
  /** Claude Code's settings `env`, set for the run's commands (secret-looking names are not). */
  commandEnv: Record<string, string>;
}

/** The running agent's own frontmatter hooks, with the trust of the folder its file is in. */
function agentHooksOf(o: PipelineOptions): { agent?: AgentHooks } {
  const { hooks, source } = o.profile;
  if (!hooks || !source) return {};
  const scope = isInside(source, o.workspace) ? 'workspace' : 'user';
  return { agent: { file: source, scope, hooks, subagent: (o.depth ?? 0) > 0 } };
}

/** Builds the hooks of one run. Contract: never rejects for a broken user hook (it is a diagnostic). */
export async function buildPipeline(o: PipelineOptions): Promise<PipelineHooks> {
  const on = (b: Builtin) => b.alwaysOn || builtinEnabled(o.settings, b.info.name);
  const claudeSettings = await readClaudeSettingsFiles(o.workspace, o.home);
  const workingDirs = await workspaceWorkingDirs({
    workspace: o.workspace,
    workbenchHome: o.home,
    trusted: o.trusted,
    claudeSettings,
  });
  const runDirs = [...new Set([...(o.addDirs ?? []), ...workingDirs.dirs])];
  let skillsRead: Promise<LoadSkillsResult> | undefined;
  const skills = () =>
    (skillsRead ??= loadSkills({
      home: o.home,
      workspace: o.workspace,
      extraPaths: o.profile.skills.paths,
      workingDirs: runDirs,
      disabled: o.settings.disabled_skills,
    }));
  // Permission rules are a protection: `--no-hooks` and a switched-off user-hooks leave them on.
  const permissions = await loadPermissionRules({ ...o, claudeSettings });
  const rules = [...permissions.rules, ...profileDenyRules(o.profile)];
  const user = builtinEnabled(o.settings, userHooksInfo.name)
    ? await createUserHooks({
        workspace: o.workspace,
        home: o.home,
        settings: o.settings,
        trusted: o.trusted,
        noHooks: o.noHooks,
        hookRuns: o.hookRuns,
        claudeSettings,
        variables: o.env,
        rules,
        mcp: o.mcp,
        skills,
        workingDirs: runDirs,
        ...agentHooksOf(o),
      })
    : { hooks: [], infos: [], diagnostics: [], processes: [] };
  // The profile's script hook (docs/agents.md) runs last among the user hooks.
  const script = builtinEnabled(o.settings, userHooksInfo.name)
    ? profileScriptHooks(o)
    : { hooks: [], infos: [], diagnostics: [] };
  const users: UserHooks = {
    hooks: [...user.hooks, ...script.hooks],
    infos: [...user.infos, ...script.infos],
    diagnostics: [...user.diagnostics, ...script.diagnostics],
    processes: user.processes,
  };
  const claudeSandbox = claudeSandboxRun(claudeSettings, { trusted: o.trusted });
  const commandEnv = settingsEnv(claudeSettings, o.trusted);
  const agentMemory = o.profile.agent_memory
    ? await openAgentMemory(o.profile.agent_memory, o.profile.name, o.workspace)
    : undefined;
  const loaded = {
    user: users,
    rules,
    sandboxPaths: permissions.sandboxPaths,
    claudeSettings,
    skills,
    denyInsteadOfPromptingBy: permissions.denyInsteadOfPromptingBy,
    agentMemory,
    commandEnv,
  };
  const hooks = PIPELINE.filter(on).flatMap((b) => b.create(o, loaded));
  return {
    hooks,
    userHookInfos: users.infos,
    diagnostics: [
      ...users.diagnostics,
      ...permissions.diagnostics,
      ...claudeSandbox.diagnostics,
      ...workingDirs.diagnostics,
    ],
    claudeSandbox: claudeSandbox.run,
    workingDirs: runDirs,
    processes: users.processes,
    denyInsteadOfPromptingBy: permissions.denyInsteadOfPromptingBy,
    ...(agentMemory && 'dir' in agentMemory ? { agentMemoryDir: agentMemory.dir } : {}),
    commandEnv,
  };
}

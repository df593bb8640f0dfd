/**
 * Builds the ordered hook list of one run (seed 000 §5.2, extended by ARCHITECTURE §3):
 * tracing (outermost) → todolist → user hooks → approval → filesystem → skills → memory →
 * summarization (innermost around the model). A built-in switched off in settings is left out.
 */
import type { HookInfo, WorkbenchSettings } from '../../shared/types/index.ts';
import type { Hook } from '../pipeline/hook.ts';
import { createApprovalHook, type ApprovalBroker } from '../middleware/approval.ts';
import { createSystemPromptHook, type AgentProfile } from '../agents/profile.ts';
import type { ApprovalMode } from '../../shared/types/index.ts';
import type { Database, HookRunStore } from '../store/types.ts';
import { createTracingHook } from '../middleware/tracing.ts';
import { createTodoListHook } from '../middleware/todos.ts';
import { createFilesystemHook } from '../middleware/filesystem.ts';
import { createSkillsHook } from '../middleware/skills.ts';
import { createMemoryHook } from '../middleware/memory.ts';
import { createSummarizationHook } from '../middleware/summarization.ts';
import { createUserHooks } from '../user-hooks/index.ts';

interface BuiltinSpec {
  name: string;
  phases: string[];
  description: string;
}

/** The built-in middleware in pipeline order, as the hooks panel lists it. */
export const BUILTIN_HOOKS: readonly BuiltinSpec[] = [
  { name: 'tracing', phases: ['wrap_model_call', 'wrap_tool_call'], description: 'Records a span for every model call, tool call and hook run' },
  { name: 'todolist', phases: ['before_agent'], description: 'Gives the agent the write_todos tool' },
  { name: 'user-hooks', phases: ['user_message_send', 'before_tool_call', 'after_tool_call', 'after_turn', 'agent_stop'], description: 'Runs your executable and settings hooks' },
  { name: 'approval', phases: ['wrap_tool_call'], description: 'Asks before tools that write or execute' },
  { name: 'filesystem', phases: ['before_agent', 'wrap_tool_call'], description: 'The seven workspace tools; evicts results over 80,000 characters' },
  { name: 'profile', phases: ['before_agent', 'modify_request'], description: 'System prompt and tools allowlist from .workbench/agent.yaml' },
  { name: 'skills', phases: ['before_agent', 'modify_request'], description: 'Adds the SKILL.md catalog to the system message' },
  { name: 'memory', phases: ['before_agent', 'modify_request'], description: 'Adds AGENTS.md memory to the system message' },
  { name: 'summarization', phases: ['wrap_model_call'], description: 'Compacts the conversation near the context window' },
];

export const builtinHookId = (name: string): string => `builtin:${name}`;

/** Whether a built-in is on: everything is on unless switched off in settings. */
export function builtinEnabled(settings: WorkbenchSettings, name: string): boolean {
  return settings.hook_overrides[builtinHookId(name)]?.enabled !== false;
}

export function builtinHookInfos(settings: WorkbenchSettings): HookInfo[] {
  return BUILTIN_HOOKS.map((b) => ({
    id: builtinHookId(b.name),
    name: b.name,
    source: 'builtin',
    dialect: 'builtin',
    events: b.phases,
    enabled: builtinEnabled(settings, b.name),
    trusted: true,
    command: b.description,
  }));
}

export interface PipelineOptions {
  workspace: string;
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
}

export interface Pipeline {
  hooks: Hook[];
  userHookInfos: HookInfo[];
  diagnostics: string[];
}

export async function buildPipeline(o: PipelineOptions): Promise<Pipeline> {
  const on = (name: string) => builtinEnabled(o.settings, name);
  const user = on('user-hooks')
    ? await createUserHooks({ workspace: o.workspace, home: o.home, settings: o.settings, trusted: o.trusted, noHooks: o.noHooks, hookRuns: o.hookRuns })
    : { hooks: [], infos: [], diagnostics: [] };
  const hooks: Hook[] = [];
  if (on('tracing')) hooks.push(createTracingHook());
  if (on('todolist')) hooks.push(createTodoListHook());
  hooks.push(...user.hooks);
  // Approval is a safety policy, not a convenience: it cannot be switched off here (use approval mode 'auto').
  hooks.push(createApprovalHook({ mode: o.approvalMode, broker: o.broker, interactive: o.interactive }));
  if (on('filesystem')) hooks.push(createFilesystemHook());
  if (on('profile')) hooks.push(createProfileHook(o.profile));
  if (on('skills')) hooks.push(createSkillsHook({ home: o.home, extraPaths: o.profile.skills.paths, disabled: o.settings.disabled_skills }));
  if (on('memory')) hooks.push(createMemoryHook({ home: o.home, extraPaths: o.profile.memory.paths }));
  if (on('summarization')) {
    hooks.push(createSummarizationHook({ contextWindow: o.profile.context_window, compaction: o.profile.compaction, store: o.db.threads }));
  }
  return { hooks, userHookInfos: user.infos, diagnostics: user.diagnostics };
}

/** The agent profile as a hook: its system prompt first in the system message, its tools allowlist. */
function createProfileHook(profile: AgentProfile): Hook {
  const systemPrompt = createSystemPromptHook(profile);
  return {
    name: 'profile',
    source: 'builtin',
    modifyRequest: systemPrompt.modifyRequest,
    async beforeAgent(ctx) {
      // Runs after todolist and filesystem registered their tools (pipeline order).
      if (profile.tools?.length) ctx.tools.restrictTo(profile.tools);
    },
  };
}

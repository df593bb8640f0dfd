/** What starting a run of an agent profile needs, and how a subagent's run becomes its result (docs/agents.md). */
import type { AgentState, ApprovalMode } from '../../shared/types/index.ts';
import type { AgentEntry, AgentRegistry } from '../agents/registry.ts';
import type { SubagentResult } from '../agents/subagent-types.ts';
import type { SubagentLineage } from '../agent/run.ts';
import type { ModelParams } from '../llm/types.ts';
import type { RecipeCall, RunContext } from '../pipeline/hook.ts';
import { WorkbenchError } from '../errors.ts';
import type { RunHandle } from './types.ts';

/** How deep subagents may nest when neither agent.yaml nor settings say. */
export const DEFAULT_SUBAGENT_DEPTH = 2;

export interface LaunchSpec {
  state: AgentState;
  text: string;
  registry: AgentRegistry;
  entry: AgentEntry;
  trusted: boolean;
  model: string;
  approvalMode: ApprovalMode;
  noHooks: boolean;
  maxIterations: number;
  controller: AbortController;
  /** The caller already holds the thread's lease. */
  leased: boolean;
  params?: ModelParams;
  parent?: SubagentLineage;
  /** Run metadata (`--meta`, the recipe) and the recipe it came from (docs/events.md). */
  metadata?: Record<string, string>;
  recipe?: string;
  recipeCall?: RecipeCall;
  /** Continue the stored thread without a new user message (docs/events.md#run-rescue). */
  resume?: boolean;
  /** Working directories of the run besides those of the settings: `--add-dir`, a parent's (real paths). */
  addDirs?: readonly string[];
}

/** The run a subagent is started from, and what it passes on to it. */
export interface SubagentParent {
  ctx: RunContext;
  registry: AgentRegistry;
  trusted: boolean;
  approvalMode: ApprovalMode;
  noHooks: boolean;
}

/** The runnable agent of that name. Contract: throws WorkbenchError not_found naming the available ones. */
export function requireAgent(registry: AgentRegistry, name: string): AgentEntry {
  const entry = registry.get(name);
  if (entry) return entry;
  const inert = registry.agents.some((a) => a.name === name && a.inert);
  const available = registry.agents
    .filter((a) => !a.inert)
    .map((a) => a.name)
    .join(', ');
  throw new WorkbenchError(
    'not_found',
    inert
      ? `agent "${name}" is a workspace profile and the workspace is not trusted (run \`workbench trust DIR\`)`
      : `unknown agent "${name}"; available: ${available}`,
  );
}

/** A finished child run as the parent sees it: the last assistant answer and how the run ended. */
export function subagentResult(
  threadId: string,
  finished: Awaited<RunHandle['finished']>,
  state: AgentState | undefined,
): SubagentResult {
  const last = [...(state?.messages ?? [])].reverse().find((m) => m.role === 'assistant');
  const content = last?.content ?? '';
  if (finished.stop_reason === 'cancelled') return { content, threadId, status: 'cancelled' };
  if (finished.blocked)
    return {
      content,
      threadId,
      status: 'error',
      error: `blocked by hook ${finished.blocked.by}: ${finished.blocked.reason}`,
    };
  if (finished.error || finished.stop_reason === 'error')
    return { content, threadId, status: 'error', error: finished.error ?? 'the run failed' };
  if (finished.stop_reason === 'max_iterations') {
    return {
      content,
      threadId,
      status: 'error',
      error: 'the subagent used all its iterations before a final answer',
    };
  }
  return { content, threadId, status: 'ok' };
}

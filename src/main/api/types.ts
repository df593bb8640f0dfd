/**
 * The one service object behind every face (CLI, `workbench serve`, Electron). Methods take one
 * argument object, matching the IPC contract's `domain.verb` channels.
 */
import type {
  AgentState,
  ApprovalDecision,
  ApprovalMode,
  ElicitAction,
  ElicitationRequestView,
  ElicitValue,
  StreamEvent,
  StreamEventData,
  ThreadSummary,
  WorkbenchSettings,
} from '../../shared/types/index.ts';
import type { LlmClient } from '../llm/types.ts';
import type { RunRecord } from '../store/run-store.ts';
import type { CompactThreadResult } from '../middleware/summarization.ts';
import type { MemoryService } from './panels/memory-service.ts';
import type { SkillsService } from './panels/skills-service.ts';
import type { AgentsService } from './panels/agents-service.ts';
import type { HooksService } from './panels/hooks-service.ts';
import type { TraceService } from './panels/trace-service.ts';
import type { TrustService } from './panels/trust-service.ts';
import type { McpService } from './panels/mcp-service.ts';
import type { CheckpointService } from '../checkpoints/service.ts';

export interface SendArgs {
  threadId?: string;
  text: string;
  /** Workspace for a new thread; an existing thread keeps its own. Defaults to the workbench's. */
  workspace?: string;
  model?: string;
  approvalMode?: ApprovalMode;
  maxIterations?: number;
  /** Run workspace hooks for this run even if the workspace is not trusted (`--trust`). */
  trust?: boolean;
  /** Turn user hooks off for this run (`--no-hooks`). */
  noHooks?: boolean;
  /** The agent profile to run (`--agent`, the composer); kept as the thread's agent. Default: the thread's, else `main`. */
  agent?: string;
  /** Run metadata (`--meta key=value`), also merged into the thread's (docs/events.md). */
  metadata?: Record<string, string>;
  /**
   * Run this recipe with `text` as its arguments (`--recipe`). Without it, a `text` of the form
   * `/name args` naming a recipe runs that recipe (docs/recipes.md).
   */
  recipe?: string;
  /** Named recipe arguments (`{{.key}}`), from a hook's `callback_args`. */
  recipeArgs?: Record<string, string>;
  /**
   * Folders the agent works in besides the workspace (`--add-dir`): absolute, or relative to the
   * workspace (docs/security.md#working-directories). Contract: a folder refused fails the call.
   */
  addDirs?: readonly string[];
}

/** Continues an interrupted thread (docs/events.md#run-rescue). */
export type ResumeArgs = Omit<SendArgs, 'text' | 'recipe' | 'recipeArgs' | 'workspace'> & { threadId: string };

/** A recipe as the composer lists it. */
export interface RecipeInfo {
  name: string;
  description: string;
  argument_hint?: string;
  source: string;
}

export interface RunHandle {
  threadId: string;
  runId: string;
  /** Resolves when the run ends (never rejects): the `done` event's data. */
  finished: Promise<{
    stop_reason: string;
    error?: string;
    blocked?: { by: string; reason: string };
  }>;
}

/** The system message(s) and size of the last request sent to the model on a thread. */
export interface LastRequest {
  thread_id: string;
  run_id: string;
  model: string;
  at: number;
  /** The system message exactly as sent (system prompt + skills catalog + memory + hook context). */
  system: string;
  message_count: number;
  estimated_tokens: number;
}

export interface WorkbenchOptions {
  /** $WORKBENCH_HOME: database, settings, user hooks, skills, AGENTS.md. */
  home: string;
  /** Default workspace for new threads. */
  workspace: string;
  /** Overrides the OpenAI-compatible client (tests, bench). */
  llm?: LlmClient;
  /** API key from the environment or the OS keychain; never stored in settings or sent to the renderer. */
  apiKey?: string;
  baseURL?: string;
  model?: string;
  /** False when nobody can answer approval prompts (the CLI): writes and commands are then refused unless the mode allows them. */
  interactive?: boolean;
  /**
   * Close spans an earlier process left open when it crashed (default true). One-shot commands that
   * start no run pass false, so they never cut short the spans of an app running at the same time.
   */
  closeStaleSpans?: boolean;
  /**
   * Replay runs of other processes (their feed events) to subscribers, so `serve` and the app show
   * a CLI run as it happens (docs/events.md). Default false.
   */
  followFeed?: boolean;
  /**
   * The user's environment with its secrets (the CLI's holds what its launcher handed over): read
   * only for the variables an http hook's headers name and list in `allowedEnvVars`. Default process.env.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** How long a finished thread waits for its user before Notification `idle_prompt` hooks run (default 60 s; tests). */
  idlePromptMs?: number;
}

export interface Workbench {
  readonly home: string;
  readonly workspace: string;
  threads: {
    /** Threads, newest first; subagents' child threads only with `includeChildren`. */
    list(args?: {
      workspace?: string;
      search?: string;
      includeChildren?: boolean;
      metadata?: Record<string, string>;
    }): ThreadSummary[];
    /** The child threads of the subagent runs a thread started (docs/agents.md). */
    children(args: { threadId: string }): ThreadSummary[];
    /** Sets (`set`) and removes (`remove`) thread metadata keys; returns the result. */
    setMetadata(args: {
      threadId: string;
      set?: Record<string, string>;
      remove?: string[];
    }): Record<string, string>;
    /** The thread's runs, newest first. */
    runs(args: { threadId: string }): RunRecord[];
    get(args: { threadId: string }): AgentState | undefined;
    summary(args: { threadId: string }): ThreadSummary | undefined;
    create(args?: { workspace?: string; title?: string }): ThreadSummary;
    rename(args: { threadId: string; title: string }): void;
    delete(args: { threadId: string }): void;
    /** A new thread holding messages [0, upTo) of this one (edit-and-resend, regenerate). */
    fork(args: { threadId: string; upTo: number }): ThreadSummary;
    /** Estimated tokens of the thread's context (the last request, else its messages) and the window. */
    context(args: { threadId: string }): Promise<{ used: number; window: number }>;
    /**
     * Summarizes a thread's older messages now and stores the summary (the thread keeps its full
     * history), with the context window and compaction settings of its workspace's agent.yaml.
     * Contract: rejects WorkbenchError not_found for an unknown thread, and when the summary fails.
     */
    compact(args: {
      threadId: string;
      model?: string;
      signal?: AbortSignal;
    }): Promise<CompactThreadResult>;
  };
  chat: {
    /** Starts a run; events stream to subscribers. Rejects only for bad input (empty text, unknown thread). */
    send(args: SendArgs): Promise<RunHandle>;
    /**
     * Continues a thread from its stored messages without a new one (after an interrupted run).
     * Contract: rejects WorkbenchError conflict when the thread's last message is a final answer.
     */
    resume(args: ResumeArgs): Promise<RunHandle>;
    cancel(args: { threadId: string }): boolean;
    approve(args: { approvalId: string; decision: ApprovalDecision }): boolean;
    /** Approval prompts still waiting on a thread, oldest first. */
    pendingApprovals(args: { threadId: string }): StreamEventData['on_approval_request'][];
    /**
     * Answers what an MCP server asked the user (docs/tools.md#when-a-server-asks-you). Contract:
     * `accepted` false with `error` when the request is gone or an accepted form does not fit.
     */
    answerElicitation(args: { elicitationId: string; action: ElicitAction; content?: Record<string, ElicitValue> }): {
      accepted: boolean;
      error?: string;
    };
    /** Elicitations still waiting on a thread, oldest first. */
    pendingElicitations(args: { threadId: string }): ElicitationRequestView[];
    /** Thread ids with a run in progress. */
    running(): string[];
  };
  settings: {
    get(): WorkbenchSettings;
    update(patch: Partial<WorkbenchSettings>): Promise<WorkbenchSettings>;
  };
  inspect: {
    /** What the model was last sent on this thread (the "effective context" view); undefined before the first call. */
    lastRequest(args: { threadId: string }): LastRequest | undefined;
  };
  /** Recipes the composer offers as `/name` (docs/recipes.md). */
  recipes: {
    list(args?: { workspace?: string }): Promise<RecipeInfo[]>;
  };
  /** Trace timeline, export and import. */
  trace: TraceService;
  /** The memory, skills and hooks panels. */
  memory: MemoryService;
  skills: SkillsService;
  /** The Agents panel and `workbench agents list` (docs/agents.md). */
  agents: AgentsService;
  hooks: HooksService;
  /** Workspace trust (the trust prompt and `workbench trust`). */
  trust: TrustService;
  /** MCP servers: status, tools, switches (docs/tools.md#mcp-servers). */
  mcp: McpService;
  /** Agent writes kept for review and revert (docs/tools.md#checkpoints). */
  checkpoints: CheckpointService;
  credentials: {
    /** Sets the API key for model calls (kept in memory by the core; the faces decide where it is stored). */
    setApiKey(args: { apiKey: string | undefined }): void;
    hasApiKey(): boolean;
  };
  /** Subscribes to every StreamEvent of every run; returns the unsubscribe function. */
  subscribe(listener: (event: StreamEvent) => void): () => void;
  close(): Promise<void>;
}

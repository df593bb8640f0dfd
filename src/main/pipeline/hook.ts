/**
 * The Hook interface: one method per pipeline phase (the phase table is pipeline/phases.ts and
 * docs/architecture.md). Every method is optional; a hook implements only what it takes part in.
 */
import type { ApprovalMode, AgentState, FileChange, HookSource, Todo, Message, ToolCall, ToolResult, RunEvent, WorkbenchSettings } from '../../shared/types/index.ts';
import type { AgentProfile } from '../agents/profile.ts';
import type { SubagentRequest, SubagentResult } from '../agents/subagent-types.ts';
import type { LlmClient, LlmResponse, ModelRequest } from '../llm/types.ts';
import type { PhaseName } from './phases.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { Workspace } from '../tools/workspace.ts';
import type { SpanHandle, TraceRecorder } from '../tracing/types.ts';
import type { CommandSnapshotRecord, NewCheckpoint } from '../store/checkpoint-store.ts';
import type { RecipeSource } from '../recipes/loader.ts';
import type { ElicitAnswer, ElicitField } from '../../shared/types/elicitation.ts';

/** Everything a hook may read or use during one run. */
export interface RunContext {
  readonly threadId: string;
  readonly runId: string;
  readonly workspace: Workspace;
  readonly home: string; // $WORKBENCH_HOME
  readonly model: string;
  readonly llm: LlmClient;
  readonly settings: WorkbenchSettings;
  /** The workspace's agent.yaml (defaults when absent): context window, compaction, prompt. */
  readonly profile: AgentProfile;
  readonly signal: AbortSignal;
  readonly state: AgentState;
  readonly tools: ToolRegistry;
  readonly trace?: TraceRecorder;
  /** Whether workspace-sourced hooks may run (trusted workspace or `--trust`). */
  readonly trusted: boolean;
  /** The run's approval mode (`--auto`, the composer's choice), else settings.approval_mode. */
  readonly approvalMode?: ApprovalMode;
  /** Variables hooks added for the run's commands (Claude `CLAUDE_ENV_FILE`); secrets are still dropped. */
  readonly toolEnv?: Record<string, string>;
  /** Sends an event to the stream. Contract: the run stamps `run_id` and `thread_id`. */
  emit(event: RunEvent): void;
  /**
   * Records a file the agent wrote or edited: updates `state.files`, persists it and emits
   * `file_changed`, and checkpoints `before` (null: the file did not exist) so the change can be
   * reverted (docs/tools.md#checkpoints). Contract: every agent write passes here exactly once.
   */
  recordFile(
    path: string,
    content: string,
    change: Omit<FileChange, 'path'>,
    before?: Buffer | null,
  ): void;
  /**
   * Records the snapshots around an execute call and the files it changed as checkpoints
   * (docs/tools.md#checkpoints); absent where nothing stores them (then commands are not snapshotted).
   */
  recordCommand?(
    snapshot: Omit<CommandSnapshotRecord, 'thread_id' | 'run_id'>,
    files: ReadonlyArray<Omit<NewCheckpoint, 'thread_id' | 'run_id'>>,
  ): void;
  /** Replaces the todo list: updates `state.todos`, persists it and emits `on_todos`. */
  setTodos(todos: Todo[]): void;
  /**
   * Asks the user to allow a tool call a hook wants confirmed (Claude `permissionDecision: "ask"`);
   * resolves 'deny' at once when nobody can answer. An allowed call is not asked again by the approval ring.
   */
  askUser?(call: ToolCall, reason: string): Promise<'allow' | 'deny'>;
  /**
   * Runs the pipeline's permission_request phase for a call about to wait for a person (Claude
   * PermissionRequest): the first hook that decides answers instead of the person.
   */
  requestPermission?(ask: PermissionAsk): Promise<PermissionAnswer | undefined>;
  /** Runs the pipeline's permission_denied phase for a call the policy refused by itself. Contract: never rejects. */
  permissionDenied?(denial: PermissionDenial): Promise<DenialOutcome>;
  /**
   * Gets the answer to an MCP server's request for input during one of this run's tool calls
   * (docs/tools.md#when-a-server-asks-you): the elicitation phase's hooks, else the person, else a
   * decline; then the elicitation_result phase. The person's wait is added to `span` (the call's)
   * as `workbench.elicitation.wait_ms`. Contract: rejects only when the run is cancelled.
   */
  elicit?(ask: ElicitationAsk, span?: SpanHandle): Promise<ElicitAnswer>;
  /** Runs the pipeline's notification phase (Claude Notification). Contract: never rejects. */
  notify?(notice: WaitNotice): Promise<void>;
  /**
   * Runs the pipeline's compact phase: tells the hooks a compaction is about to happen ('pre',
   * which a hook may veto) or happened ('post'). Set by the run, called by whoever compacts.
   */
  notifyCompaction?(notice: CompactionNotice): Promise<{ blocked: boolean; reason?: string }>;
  /**
   * Runs the pipeline's instructions_loaded phase: memory files joined the run's requests. Set by
   * the run, called by the memory middleware. Contract: never rejects.
   */
  notifyInstructions?(files: readonly LoadedInstructions[]): Promise<void>;
  /**
   * Runs another agent profile as a subagent of this run on a fresh child thread (docs/agents.md).
   * Absent when the depth limit is reached. Contract: cancel of this run cancels the subagent.
   */
  runSubagent?(request: SubagentRequest): Promise<SubagentResult>;
  /** How deep this run is in a chain of subagents: 0 for the agent the user talks to (docs/agents.md). */
  readonly depth?: number;
  /** The run's metadata (`--meta`, hooks) and the recipe it came from (docs/events.md). */
  readonly metadata?: Readonly<Record<string, string>>;
  readonly recipe?: string;
  /** How the user invoked that recipe: its arguments and where it was found (Claude UserPromptExpansion). */
  readonly recipeCall?: RecipeCall;
  /** Sets a run metadata key: stored with the run and its thread, and on the run's root span. */
  setMetadata?(key: string, value: string): void;
}

export type ModelCallFn = (req: ModelRequest) => Promise<LlmResponse>;
export type ToolCallFn = (call: ToolCall) => Promise<ToolResult>;

export interface UserMessageOutcome {
  blocked: boolean;
  reason?: string;
  /** Name of the hook that blocked. */
  by?: string;
  /** Extra context to add for the model (Claude `additionalContext`). */
  additional_context?: string;
}

export interface TurnInfo {
  turn: number;
  response: LlmResponse;
}

/** A turn's tool calls, every one resolved, before the next model call (Claude PostToolBatch). */
export interface ToolBatch {
  calls: readonly ToolCall[];
  results: readonly ToolResult[];
}

/** What `after_tool_batch` may ask for: end the run before the next model call, or tell the model something with the results. */
export interface ToolBatchOutcome {
  halt?: { by: string; reason: string };
  /** Added to the batch's last result, as a `<hook_feedback>` block the model reads next. */
  context?: string[];
}

/** How a run ended, as `after_agent` hears it; a model error with its code and HTTP status. */
export interface RunOutcome {
  stop_reason: string;
  error?: string;
  error_code?: string;
  error_status?: number;
}

/** What `after_turn` may ask for: replace the history (applied once the turn's tools ran), or compact. */
export interface TurnOutcome {
  mutate?: Message[];
  callback?: 'compact';
}

/** Before/after a compaction (Claude PreCompact / PostCompact). */
export interface CompactionNotice {
  phase: 'pre' | 'post';
  trigger: 'auto' | 'manual';
  /** The summary text, on 'post'. */
  summary?: string;
}

/** A recipe the user's message was expanded from (a composer `/name args`, `--recipe name args`). */
export interface RecipeCall {
  name: string;
  /** What followed the name, as typed. */
  args: string;
  source: RecipeSource;
}

/** A memory file that joined a run's requests (Claude InstructionsLoaded). */
export interface LoadedInstructions {
  /** Its absolute path. */
  path: string;
  scope: 'managed' | 'user' | 'parent' | 'workspace' | 'local' | 'extra' | 'working_dir' | 'subfolder';
  /**
   * At the run's start, through a subfolder the agent touched, a rule whose `paths` a touched file
   * matched, or imported by another memory file.
   */
  reason: 'run_start' | 'subfolder' | 'rule' | 'import';
  /** The path whose read or write brought a subfolder's memory or a rule in. */
  trigger?: string;
  /** A rule's `paths` globs. */
  globs?: string[];
  /** The memory file that imported this one. */
  parent?: string;
}

/** A call about to wait for a person's approval, or be refused because nobody can give it. */
export interface PermissionAsk {
  call: ToolCall;
  kind: 'write' | 'execute';
  /** False when nobody can answer (the CLI): without a hook's allow the call is refused. */
  interactive: boolean;
}

/** A hook's answer in place of the person's (Claude `decision.behavior`). */
export interface PermissionAnswer {
  behavior: 'allow' | 'deny';
  /** The hook that decided. */
  by: string;
  /** Why (a deny's message is the call's error). */
  message?: string;
  /** Deny and end the run (Claude `interrupt: true`, `continue: false`). */
  interrupt?: boolean;
}

/**
 * A call the approval policy refused by itself: it always needs a person, and nobody can approve it
 * here (Claude PermissionDenied, which fires for auto mode's classifier).
 */
export interface PermissionDenial {
  call: ToolCall;
  /** The refusal the model is told. */
  reason: string;
}

/** What the permission_denied hooks said: `retry_by` names one that tells the model it may retry. */
export interface DenialOutcome {
  retry_by?: string;
}

/** An MCP server asking the user for input while one of its tools runs (Claude Elicitation). */
export interface ElicitationAsk {
  server: string;
  message: string;
  mode: 'form' | 'url';
  /** The form's JSON Schema as the server sent it (hooks read it), and the fields read from it. */
  requestedSchema?: Record<string, unknown>;
  fields?: ElicitField[];
  /** The page to open (mode `url`), and the server's id for it. */
  url?: string;
  elicitationId?: string;
  /** Why it cannot be shown (a form of fields no form can ask for, a page that is not a web address): it is declined. */
  unusable?: string;
  /**
   * The server refused the call until this page is finished (MCP's URL elicitation required error):
   * an accept means the person finished there, and the call is tried again.
   */
  required?: boolean;
  /** Settles when the server reports the page finished (`notifications/elicitation/complete`). */
  finished?: Promise<void>;
  /** The tool call it came during. */
  callId?: string;
}

/** A hook's answer in the person's place, or its change to the answer (Claude `hookSpecificOutput.action`). */
export interface ElicitationDecision extends ElicitAnswer {
  /** The hook that answered. */
  by: string;
}

/**
 * The agent waits on the user (Claude Notification): an approval prompt (`permission_prompt`) or an
 * MCP server's request for input (`elicitation_dialog`).
 */
export type WaitNotice =
  | { type: 'permission_prompt'; call: ToolCall }
  | { type: 'elicitation_dialog'; server: string; message: string };

/** What `agent_stop` may ask for: follow-ups continue the loop. */
export interface StopOutcome {
  follow_up_messages?: string[];
  mutate?: Message[];
  callback?: 'compact';
}

/** How a built-in describes itself to the hooks panel and `workbench hooks list`. */
export interface MiddlewareInfo {
  /** Unique; the hook id is `builtin:<name>` (persisted in settings). */
  readonly name: string;
  readonly description: string;
  /** The phases its hook takes part in (test/unit/pipeline checks them against its methods). */
  readonly phases: readonly PhaseName[];
}

export interface Hook {
  readonly name: string; // unique; shown in the hooks panel
  readonly source: HookSource;
  /** One line for the hooks panel. */
  readonly description?: string;
  /** 'closed': a failure of this hook blocks where its phase can block (default 'open'). */
  readonly failMode?: 'open' | 'closed';
  beforeAgent?(ctx: RunContext, state: AgentState): Promise<void>;
  /** Contract: returns a new request (or the same one); never mutates its input. */
  modifyRequest?(ctx: RunContext, req: ModelRequest): Promise<ModelRequest>;
  wrapModelCall?(ctx: RunContext, req: ModelRequest, next: ModelCallFn): Promise<LlmResponse>;
  wrapToolCall?(ctx: RunContext, call: ToolCall, next: ToolCallFn): Promise<ToolResult>;
  onUserMessage?(ctx: RunContext, text: string): Promise<UserMessageOutcome>;
  /** A call is about to wait for a person: answer in the person's place, or return nothing. */
  onPermissionRequest?(ctx: RunContext, ask: PermissionAsk): Promise<PermissionAnswer | void>;
  /** A call the policy refused by itself; observe, or name who tells the model it may retry. */
  onPermissionDenied?(ctx: RunContext, denial: PermissionDenial): Promise<DenialOutcome | void>;
  onNotification?(ctx: RunContext, notice: WaitNotice): Promise<void>;
  /** An MCP server asks the user for input: answer in the person's place, or return nothing. */
  onElicitation?(ctx: RunContext, ask: ElicitationAsk): Promise<ElicitationDecision | void>;
  /** The answer to an elicitation before the server gets it: change it, or return nothing. */
  onElicitationResult?(ctx: RunContext, ask: ElicitationAsk, answer: ElicitAnswer): Promise<ElicitationDecision | void>;
  afterToolBatch?(ctx: RunContext, batch: ToolBatch): Promise<ToolBatchOutcome | void>;
  /** Memory files joined the run's requests; observe only. */
  onInstructionsLoaded?(ctx: RunContext, files: readonly LoadedInstructions[]): Promise<void>;
  afterTurn?(ctx: RunContext, info: TurnInfo): Promise<TurnOutcome>;
  onAgentStop?(ctx: RunContext, msgs: Message[]): Promise<StopOutcome>;
  /** Compaction is about to happen or happened; a 'pre' answer `{blocked: true}` skips it. */
  onCompact?(ctx: RunContext, notice: CompactionNotice): Promise<{ blocked?: boolean; reason?: string } | void>;
  /** Compacts the thread now (`callback: "compact"`); implemented by the hook that owns compaction. */
  compactThread?(ctx: RunContext): Promise<void>;
  /** Called once when the run ends, whatever the outcome (Claude SessionEnd-like cleanup). */
  afterAgent?(ctx: RunContext, outcome: RunOutcome): Promise<void>;
}

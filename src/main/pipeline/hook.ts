/**
 * The Hook interface (ARCHITECTURE §3): the four phases of seed 000 §4 plus the lifecycle points of
 * seeds 001/002. Every method is optional; a hook implements only what it takes part in.
 */
import type { AgentState, FileChange, HookSource, Todo, Message, ToolCall, ToolResult, RunEvent, WorkbenchSettings } from '../../shared/types/index.ts';
import type { LlmClient, LlmResponse } from '../llm/types.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { Workspace } from '../tools/workspace.ts';
import type { TraceRecorder } from '../tracing/types.ts';

/** Everything a hook may read or use during one run. */
export interface RunContext {
  readonly threadId: string;
  readonly runId: string;
  readonly workspace: Workspace;
  readonly home: string; // $WORKBENCH_HOME
  readonly model: string;
  readonly llm: LlmClient;
  readonly settings: WorkbenchSettings;
  readonly signal: AbortSignal;
  readonly state: AgentState;
  readonly tools: ToolRegistry;
  readonly trace?: TraceRecorder;
  /** Whether workspace-sourced hooks may run (trusted workspace or `--trust`). */
  readonly trusted: boolean;
  /** Sends an event to the stream. Contract: the run stamps `run_id` and `thread_id`. */
  emit(event: RunEvent): void;
  /**
   * Records a file the agent wrote or edited: updates `state.files`, persists it and emits
   * `file_changed`. Contract: every agent write passes here exactly once.
   */
  recordFile(path: string, content: string, change: Omit<FileChange, 'path'>): void;
  /** Replaces the todo list: updates `state.todos`, persists it and emits `on_todos`. */
  setTodos(todos: Todo[]): void;
  /**
   * Asks the user to allow a tool call a hook wants confirmed (Claude `permissionDecision: "ask"`);
   * resolves 'deny' at once when nobody can answer. An allowed call is not asked again by the approval ring.
   */
  askUser?(call: ToolCall, reason: string): Promise<'allow' | 'deny'>;
  /**
   * Tells the hooks a compaction is about to happen ('pre', which a hook may veto) or happened
   * ('post'); set by the run, called by whoever compacts.
   */
  notifyCompaction?(notice: CompactionNotice): Promise<{ blocked: boolean; reason?: string }>;
  /** Forces a compaction of the thread (lifecycle `callback: "compact"`); no-op without a compactor. */
  compact?(): Promise<void>;
}

export type ModelCallFn = (msgs: Message[]) => Promise<LlmResponse>;
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

/** What `after_turn` may ask for (seed 002). */
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

/** What `agent_stop` may ask for (seed 002): follow-ups continue the loop. */
export interface StopOutcome {
  follow_up_messages?: string[];
  mutate?: Message[];
  callback?: 'compact';
}

export interface Hook {
  readonly name: string; // unique; shown in the hooks panel
  readonly source: HookSource;
  beforeAgent?(ctx: RunContext, state: AgentState): Promise<void>;
  modifyRequest?(ctx: RunContext, msgs: Message[]): Promise<Message[]>;
  wrapModelCall?(ctx: RunContext, msgs: Message[], next: ModelCallFn): Promise<LlmResponse>;
  wrapToolCall?(ctx: RunContext, call: ToolCall, next: ToolCallFn): Promise<ToolResult>;
  onUserMessage?(ctx: RunContext, text: string): Promise<UserMessageOutcome>;
  afterTurn?(ctx: RunContext, info: TurnInfo): Promise<TurnOutcome>;
  onAgentStop?(ctx: RunContext, msgs: Message[]): Promise<StopOutcome>;
  /** Compaction is about to happen or happened; a 'pre' answer `{blocked: true}` skips it. */
  onCompact?(ctx: RunContext, notice: CompactionNotice): Promise<{ blocked?: boolean; reason?: string } | void>;
  /** Called once when the run ends, whatever the outcome (Claude SessionEnd-like cleanup). */
  afterAgent?(ctx: RunContext, outcome: { stop_reason: string }): Promise<void>;
}

/** Storage ports over `workbench.db`. node:sqlite is synchronous, so these are too. */
import type {
  AgentState,
  HookHealth,
  HookRunRecord,
  Message,
  SpanRecord,
  ThreadSummary,
  Todo,
} from '../../shared/types/index.ts';

export interface CompactionSummary {
  /** Messages [0, upto) of the stored thread are replaced by `content` when sending to the model. */
  upto: number;
  content: string;
  created_at: number;
}

/** What links a thread to its agent profile and, for a subagent run, to its parent's tool call. */
export interface ThreadLineage {
  agent?: string;
  parent_thread_id?: string;
  parent_tool_call_id?: string;
}

export interface ThreadStore {
  /** Returns the thread (from cache, else SQLite), or a new empty one bound to `workspace`. */
  loadOrCreate(threadId: string | undefined, workspace: string): AgentState;
  get(threadId: string): AgentState | undefined;
  summary(threadId: string): ThreadSummary | undefined;
  /**
   * Threads, newest first; subagents' child threads only with `includeChildren`; `metadata` keeps
   * only threads carrying every given key with that value.
   */
  list(opts?: {
    workspace?: string;
    search?: string;
    limit?: number;
    includeChildren?: boolean;
    metadata?: Record<string, string>;
  }): ThreadSummary[];
  /** The child threads of subagent runs started from `threadId`, oldest first. */
  children(threadId: string): ThreadSummary[];
  /** Sets the thread's agent profile and, for a child thread, its parent (docs/agents.md). */
  setLineage(threadId: string, lineage: ThreadLineage): void;
  /** Appends messages as rows, in one transaction; also updates the in-memory state. */
  appendMessages(threadId: string, msgs: Message[]): void;
  /**
   * Replaces the whole conversation (lifecycle hooks' `mutate`, the one deliberate rewrite): one
   * transaction; the stored compaction is dropped since its message indices no longer apply.
   */
  replaceMessages(threadId: string, msgs: Message[]): void;
  setTodos(threadId: string, todos: Todo[]): void;
  setFile(threadId: string, path: string, content: string): void;
  setTitle(threadId: string, title: string): void;
  /** Sets keys (a `null` value removes one) and returns the thread's metadata. */
  mergeMetadata(threadId: string, patch: Record<string, string | null>): Record<string, string>;
  delete(threadId: string): void;
  getCompaction(threadId: string): CompactionSummary | undefined;
  setCompaction(threadId: string, summary: CompactionSummary): void;
}

export interface SpanStore {
  /** Inserts or replaces a span (called at start and at end). */
  upsert(span: SpanRecord): void;
  listByThread(threadId: string): SpanRecord[];
  listByRun(runId: string): SpanRecord[];
  /**
   * Closes spans left open by a crash: status ERROR, error.type=process_crash, incomplete. Spans of a
   * run whose root span names a live other process (`workbench.pid`) are left alone. Returns the count.
   */
  closeOpenSpans(now: number, isAlive?: (pid: number) => boolean): number;
}

export interface HookRunStore {
  /** Stores a run, at once or with `defer` batched with others (the id is known at once either way). */
  insert(run: Omit<HookRunRecord, 'id'>, opts?: { defer?: boolean }): number;
  /** Writes the deferred rows still waiting (a store without deferral has none). */
  flush?(): void;
  get(id: number): HookRunRecord | undefined;
  recent(opts?: { limit?: number; hookId?: string; threadId?: string }): HookRunRecord[];
  /** The outcomes of each hook's last `n` runs, newest first (cancelled runs left out); hooks never run are absent. */
  health(hookIds: readonly string[], n: number): Map<string, HookHealth>;
}

export interface Database {
  readonly threads: ThreadStore;
  readonly spans: SpanStore;
  readonly hookRuns: HookRunStore;
  /**
   * Runs `fn` in one SQLite transaction (nested calls join the outer one). `deferSync` commits
   * without an fsync, `syncInBackground` with one on the thread pool (still safe against a killed
   * process; see TransactionOptions).
   */
  transaction<T>(fn: () => T, opts?: { deferSync?: boolean; syncInBackground?: boolean }): T;
  /** Resolves when every commit so far is on disk (background syncs included). */
  whenDurable(): Promise<void>;
  close(): void;
}

/**
 * One run of the agent on a thread, from the user's message to `done` (docs/architecture.md): the
 * user_message_send gate, the append, the loop, and the run lifecycle events and root span.
 */
import { isAbsolute } from 'node:path';
import { isInside } from '../tools/path-guard.ts';
import { randomBytes } from 'node:crypto';
import type {
  ApprovalMode,
  AgentState,
  Message,
  SpanRecord,
  ToolCall,
  RunState,
  RunStopReason,
  RunEvent,
  StreamEvent,
  WorkbenchSettings,
} from '../../shared/types/index.ts';
import { profileOffers, type AgentProfile } from '../agents/profile.ts';
import type { SubagentRequest, SubagentResult } from '../agents/subagent-types.ts';
import type { ModelParams } from '../llm/types.ts';
import type { SpanHandle } from '../tracing/types.ts';
import type { Hook, RecipeCall, RunContext } from '../pipeline/hook.ts';
import { createPipeline, type Pipeline } from '../pipeline/run-phase.ts';
import { answerElicitation, type ElicitPerson } from '../mcp/elicitation-flow.ts';
import { runAgentLoop, type RunSummary } from './loop.ts';
import { mentionCalls } from './mentions.ts';
import { ToolRegistry } from '../tools/registry.ts';
import type { Workspace } from '../tools/workspace.ts';
import type { LlmClient } from '../llm/types.ts';
import type { SqliteDatabase } from '../store/database.ts';
import { changeOf } from '../checkpoints/change-kind.ts';
import { createTraceRecorder, endRunSpan, setRunMetadata, startRunSpan } from '../tracing/index.ts';
import type { SpanWriter } from '../tracing/span-writer.ts';
import type { LastRequest, RunHandle } from '../api/types.ts';
import type { ModelRequest } from '../llm/types.ts';
import { systemText } from '../llm/message-mapping.ts';
import { estimateTokens } from './tokens.ts';
import { errorMessage } from '../errors.ts';

export interface RunDeps {
  db: SqliteDatabase;
  /** Live OTLP exporter, when an endpoint is configured. */
  exporter?: { enqueue(span: SpanRecord): void };
  spans: SpanWriter;
  emit: (event: StreamEvent) => void;
  home: string;
  /** Called with every request at the centre of the model onion, just before it goes to the model. */
  onRequest?: (request: LastRequest) => void;
}

export interface RunSetup {
  state: AgentState;
  text: string;
  workspace: Workspace;
  model: string;
  llm: LlmClient;
  settings: WorkbenchSettings;
  profile: AgentProfile;
  hooks: Hook[];
  trusted: boolean;
  approvalMode?: ApprovalMode;
  maxIterations: number;
  controller: AbortController;
  askUser?: (ctx: RunContext, call: ToolCall, reason: string) => Promise<'allow' | 'deny'>;
  /** Asks the person for what an MCP server requests; absent where nobody can answer. */
  elicitPerson?: ElicitPerson;
  /** Sampling parameters every request of the run starts with (a subagent's options). */
  params?: ModelParams;
  /** Set for a subagent run: its place under the parent run (docs/agents.md). */
  parent?: SubagentLineage;
  /** Starts a subagent of this run; absent at the depth limit. */
  runSubagent?: (ctx: RunContext, request: SubagentRequest) => Promise<SubagentResult>;
  /** Run metadata (`--meta`, the recipe); docs/events.md. */
  metadata?: Record<string, string>;
  recipe?: string;
  recipeCall?: RecipeCall;
  /** Continue the stored thread without a new user message (docs/events.md#run-rescue). */
  resume?: boolean;
  /** Variables the run's commands start with (Claude Code's settings `env`). */
  toolEnv?: Record<string, string>;
}

/** Where a subagent run hangs: its depth, the parent's thread and `task` call, the parent's span. */
export interface SubagentLineage {
  depth: number;
  threadId: string;
  toolCallId?: string;
  /** The parent's span the run's root span nests under (same trace). */
  span?: SpanHandle;
}

export const newRunId = (): string => `run_${randomBytes(8).toString('hex')}`;

/**
 * Starts the run and returns at once; `finished` resolves when it ends.
 * Contract: `finished` never rejects; every outcome ends with exactly one `done` event.
 */
export function startRun(deps: RunDeps, setup: RunSetup, runId: string): RunHandle {
  const threadId = setup.state.thread_id;
  const parent = setup.parent;
  // A subagent's events say where they belong, so a face can show them under the parent's tool call.
  const lineage = parent
    ? {
        depth: parent.depth,
        parent_thread_id: parent.threadId,
        agent: setup.profile.name,
        ...(parent.toolCallId ? { parent_tool_call_id: parent.toolCallId } : {}),
      }
    : {};
  // The one place run events get their ids.
  const emit = (e: RunEvent) => deps.emit({ ...e, run_id: runId, thread_id: threadId, ...lineage });
  const recorder = createTraceRecorder({
    threadId,
    runId,
    ...(parent?.span ? { traceId: parent.span.record.trace_id } : {}),
    sink: {
      onStart: (span) => {
        deps.spans.write(span);
        emit({ event: 'on_span_start', data: { span } });
      },
      onEnd: (span) => {
        deps.spans.write(span);
        deps.exporter?.enqueue(span);
        emit({ event: 'on_span_end', data: { span } });
      },
    },
  });
  const pipeline = createPipeline(setup.hooks);
  // Subagents still running: the run ends only after them, so no child outlives its parent.
  const children = new Set<Promise<SubagentResult>>();
  const metadata: Record<string, string> = { ...setup.metadata };
  let root: SpanHandle | undefined;
  const ctx: RunContext = {
    threadId,
    runId,
    workspace: setup.workspace,
    home: deps.home,
    model: setup.model,
    llm: setup.llm,
    settings: setup.settings,
    profile: setup.profile,
    signal: setup.controller.signal,
    state: setup.state,
    tools: new ToolRegistry(),
    trace:
      setup.settings.hook_overrides['builtin:tracing']?.enabled === false ? undefined : recorder,
    trusted: setup.trusted,
    approvalMode: setup.approvalMode ?? setup.settings.approval_mode,
    toolEnv: { ...setup.toolEnv },
    emit,
    recordFile: (path, content, change, before) => {
      deps.db.transaction(() => {
        deps.db.threads.setFile(threadId, path, content);
        deps.db.checkpoints.add({
          thread_id: threadId,
          run_id: runId,
          tool_call_id: change.tool_call_id ?? '',
          // A file in an added working directory is shown by its absolute path: reverted under that root.
          workspace: isAbsolute(path)
            ? (setup.workspace.extraRoots.find((r) => isInside(path, r)) ?? setup.workspace.root)
            : setup.workspace.root,
          path,
          before: before ?? null,
          before_known: before !== undefined,
          after: Buffer.from(content, 'utf8'),
        });
      });
      emit({ event: 'file_changed', data: { path, ...change } });
    },
    recordCommand: (snapshot, files) => {
      deps.db.checkpoints.addCommand(
        { ...snapshot, thread_id: threadId, run_id: runId },
        files.map((f) => ({ ...f, thread_id: threadId, run_id: runId })),
      );
      for (const f of files)
        emit({
          event: 'file_changed',
          data: { path: f.path, tool_call_id: snapshot.tool_call_id, change: changeOf(f) },
        });
    },
    setTodos: (todos) => {
      deps.db.threads.setTodos(threadId, todos);
      emit({ event: 'on_todos', data: { todos } });
    },
    askUser: setup.askUser ? (call, reason) => setup.askUser!(ctx, call, reason) : undefined,
    notifyCompaction: (notice) => pipeline.compact(ctx, notice),
    notifyInstructions: (files) => pipeline.instructionsLoaded(ctx, files).catch(() => undefined),
    requestPermission: (ask) => pipeline.permissionRequest(ctx, ask),
    // A cancel while the hooks hear of a refusal leaves the refusal as it was.
    permissionDenied: (denial) => pipeline.permissionDenied(ctx, denial).catch(() => ({})),
    elicit: (ask, span) => answerElicitation(ctx, pipeline, ask, setup.elicitPerson, span),
    // Nobody waits for a notification: a cancelled run ends it, and that is not an error.
    notify: (notice) => pipeline.notification(ctx, notice).catch(() => undefined),
    depth: parent?.depth ?? 0,
    runSubagent: setup.runSubagent
      ? (request) => {
          const child = setup.runSubagent!(ctx, request);
          children.add(child);
          void child.finally(() => children.delete(child));
          return child;
        }
      : undefined,
    metadata,
    recipe: setup.recipe,
    recipeCall: setup.recipeCall,
    setMetadata: (key, value) => {
      metadata[key] = value;
      if (deps.db.runs.get(runId)) deps.db.runs.mergeMetadata(runId, { [key]: value });
      deps.db.threads.mergeMetadata(threadId, { [key]: value });
      if (root) setRunMetadata(root, { [key]: value });
    },
  };
  // A write queued below that failed: the next append throws it, so the run ends with the error.
  let unsaved: unknown;
  const takeUnsaved = (): Error | undefined => {
    if (unsaved === undefined) return undefined;
    const err = unsaved;
    unsaved = undefined;
    return new Error(`the thread could not be saved: ${errorMessage(err)}`, { cause: err });
  };
  const append = (msgs: Message[]) => {
    const first = setup.state.messages.length;
    // An assistant message with tool calls is followed within milliseconds by its tool results, whose
    // durable commit also makes this one durable: one fsync per round instead of two. Tool results and
    // a user's message are followed by the next model request: that fsync runs on the thread pool while
    // the request goes out (docs/performance.md). Both are written at the end of this turn of the event
    // loop, so a round whose tool answers at once commits once, after its request went out; a final
    // answer is committed at once with a synchronous fsync.
    const followedByResults =
      msgs.length === 1 && msgs[0].role === 'assistant' && Boolean(msgs[0].tool_calls?.length);
    const followedByRequest =
      msgs.length > 0 && msgs.every((m) => m.role === 'tool' || m.role === 'user');
    const later = followedByResults || followedByRequest;
    if (!later) deps.db.commitQueued();
    const failed = takeUnsaved();
    if (failed) throw failed;
    if (later) {
      deps.db.threads.appendMessagesLater(
        threadId,
        msgs,
        { deferSync: followedByResults, syncInBackground: followedByRequest },
        (err) => (unsaved ??= err),
      );
    } else deps.db.transaction(() => deps.db.threads.appendMessages(threadId, msgs));
    msgs.forEach((message, i) =>
      emit({ event: 'on_message', data: { message, index: first + i } }),
    );
  };

  const finished = (async () => {
    root = ctx.trace
      ? startRunSpan(recorder, {
          model: setup.model,
          threadId,
          workspace: setup.workspace.root,
          agentName: parent ? setup.profile.name : undefined,
          parent: parent?.span,
        })
      : undefined;
    root?.set('workbench.pid', process.pid);
    if (root) setRunMetadata(root, metadata);
    const body = async () => runWithGate(deps, ctx, setup, pipeline, append, emit);
    let outcome: Awaited<ReturnType<typeof runWithGate>>;
    try {
      outcome = root ? await recorder.withSpan(root, body) : await body();
    } catch (err) {
      outcome = {
        summary: {
          stop_reason: 'error',
          iterations: 0,
          error: errorMessage(err),
          input_tokens: 0,
          output_tokens: 0,
        },
      };
    }
    await Promise.allSettled([...children]);
    // Messages still queued are written before the run's end is recorded; one that could not be
    // is the run's error.
    deps.db.commitQueued();
    const { summary, blocked } = outcome;
    const lost = takeUnsaved();
    if (lost) {
      summary.stop_reason = 'error';
      summary.error = lost.message;
    }
    if (root)
      endRunSpan(root, {
        stop_reason: summary.stop_reason,
        iterations: summary.iterations,
        input_tokens: summary.input_tokens,
        output_tokens: summary.output_tokens,
        error: summary.error,
      });
    // The run's end state and spans are bookkeeping after its last message (committed with an
    // fsync): a power loss here leaves the run "running", which the next start rescues (docs/events.md).
    deps.db.transaction(() => deps.spans.flush(), { deferSync: true });
    if (!blocked) {
      const state: RunState =
        summary.stop_reason === 'cancelled'
          ? 'cancelled'
          : summary.stop_reason === 'error'
            ? 'failed'
            : 'completed';
      deps.db.transaction(() => deps.db.runs.finish(runId, state, summary.stop_reason), {
        deferSync: true,
      });
      emit({ event: 'on_run_state', data: { state, previous_state: 'running' } });
      emit({ event: 'on_run_finalized', data: { state, stop_reason: summary.stop_reason } });
    }
    if (summary.error)
      emit({
        event: 'error',
        data: { message: summary.error, ...(summary.error_code ? { code: summary.error_code } : {}) },
      });
    emit({
      event: 'done',
      data: { stop_reason: summary.stop_reason, iterations: summary.iterations },
    });
    return { stop_reason: summary.stop_reason as string, error: summary.error, blocked };
  })();
  return { threadId, runId, finished };
}

async function runWithGate(
  deps: RunDeps,
  ctx: RunContext,
  setup: RunSetup,
  pipeline: Pipeline,
  append: (msgs: Message[]) => void,
  emit: (e: RunEvent) => void,
): Promise<{ summary: RunSummary; blocked?: { by: string; reason: string } }> {
  const empty = (stop_reason: RunStopReason): RunSummary => ({
    stop_reason,
    iterations: 0,
    input_tokens: 0,
    output_tokens: 0,
  });
  // user_message_send: deny-fast — the first hook that blocks wins and no run starts. A resumed
  // run sends no new message, so there is nothing to gate.
  const { blocked, context } = setup.resume
    ? { blocked: undefined, context: [] }
    : await pipeline.userMessage(ctx, setup.text);
  if (blocked) {
    emit({ event: 'on_blocked', data: { ...blocked, target: 'message' } });
    return { summary: empty('blocked'), blocked };
  }
  // The run's record is made durable by the user message's commit that follows.
  deps.db.transaction(
    () => {
      deps.db.runs.create({ runId: ctx.runId, threadId: ctx.threadId, metadata: { ...ctx.metadata }, recipe: setup.recipe });
      if (ctx.metadata && Object.keys(ctx.metadata).length) deps.db.threads.mergeMetadata(ctx.threadId, ctx.metadata);
    },
    { deferSync: true },
  );
  emit({
    event: 'on_run_created',
    data: { run_id: ctx.runId, session_id: ctx.threadId, agent_name: ctx.depth ? ctx.profile.name : 'workbench' },
  });
  emit({ event: 'on_run_state', data: { state: 'running', previous_state: 'pending' } });
  emit({
    event: 'on_run_start',
    name: ctx.model,
    data: {
      workspace: ctx.workspace.root,
      model: ctx.model,
      ...(ctx.workspace.extraRoots.length ? { working_dirs: [...ctx.workspace.extraRoots] } : {}),
    },
  });
  const content = context.length
    ? `${setup.text}\n\n<hook_context>\n${context.join('\n')}\n</hook_context>`
    : setup.text;
  const tags = ctx.metadata && Object.keys(ctx.metadata).length ? { metadata: { ...ctx.metadata } } : {};
  if (!setup.resume) append([{ role: 'user', content, ...tags }]);
  // Only the person's words are read for mentions: a subagent's task is the model's, an MCP
  // prompt the server's.
  const mentions =
    setup.resume || setup.parent || setup.recipeCall?.source === 'mcp'
      ? undefined
      : () =>
          mentionCalls(setup.text, {
            root: ctx.workspace.root,
            // A tool the agent's profile keeps from it reads no mention either.
            hasTool: (name) => ctx.tools.get(name) !== undefined && profileOffers(ctx.profile, name),
          });
  const summary = await runAgentLoop({
    mentions,
    ctx,
    pipeline,
    maxIterations: setup.maxIterations,
    params: setup.params,
    append,
    replaceMessages: (msgs) => deps.db.threads.replaceMessages(ctx.threadId, msgs),
    onRequest: deps.onRequest ? (req) => deps.onRequest!(describeRequest(req, ctx.threadId, ctx.runId)) : undefined,
  });
  return { summary };
}

/** The effective context of a request as the inspector shows it (counts as on the wire). */
function describeRequest(req: ModelRequest, threadId: string, runId: string): LastRequest {
  const system = systemText(req.system);
  return {
    thread_id: threadId,
    run_id: runId,
    model: req.model,
    at: Date.now(),
    system,
    message_count: req.messages.length + (system ? 1 : 0),
    estimated_tokens: Math.ceil(system.length / 4) + estimateTokens(req.messages),
  };
}

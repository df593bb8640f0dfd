/**
 * One run of the agent on a thread, from the user's message to `done` (ARCHITECTURE §3): the
 * user_message_send gate, the append, the loop, and the run lifecycle events and root span.
 */
import { randomBytes } from 'node:crypto';
import type {
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
import type { Hook, RunContext } from '../pipeline/hook.ts';
import { runAgentLoop, type RunSummary } from './loop.ts';
import { ToolRegistry } from '../tools/registry.ts';
import type { Workspace } from '../tools/workspace.ts';
import type { LlmClient } from '../llm/types.ts';
import type { SqliteDatabase } from '../store/database.ts';
import { createTraceRecorder, endRunSpan, startRunSpan } from '../tracing/index.ts';
import type { SpanWriter } from '../tracing/span-writer.ts';
import type { LastRequest, RunHandle } from '../api/types.ts';
import type { ModelRequest } from '../llm/types.ts';
import { estimateTokens } from './tokens.ts';
import { isAbortError } from '../abort.ts';

export interface RunDeps {
  db: SqliteDatabase;
  /** Live OTLP exporter, when an endpoint is configured. */
  exporter?: { enqueue(span: SpanRecord): void };
  spans: SpanWriter;
  emit: (event: StreamEvent) => void;
  home: string;
  /** Called with every request just before it goes to the model (after all hooks). */
  onRequest?: (request: LastRequest) => void;
}

export interface RunSetup {
  state: AgentState;
  text: string;
  workspace: Workspace;
  model: string;
  llm: LlmClient;
  settings: WorkbenchSettings;
  hooks: Hook[];
  trusted: boolean;
  maxIterations: number;
  controller: AbortController;
  compact?: (ctx: RunContext) => Promise<void>;
  askUser?: (ctx: RunContext, call: ToolCall, reason: string) => Promise<'allow' | 'deny'>;
}

export const newRunId = (): string => `run_${randomBytes(8).toString('hex')}`;

/**
 * Starts the run and returns at once; `finished` resolves when it ends.
 * Contract: `finished` never rejects; every outcome ends with exactly one `done` event.
 */
export function startRun(deps: RunDeps, setup: RunSetup, runId: string): RunHandle {
  const threadId = setup.state.thread_id;
  // The one place run events get their ids.
  const emit = (e: RunEvent) => deps.emit({ ...e, run_id: runId, thread_id: threadId });
  const recorder = createTraceRecorder({
    threadId,
    runId,
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
  const ctx: RunContext = {
    threadId,
    runId,
    workspace: setup.workspace,
    home: deps.home,
    model: setup.model,
    llm: deps.onRequest
      ? observed(setup.llm, (req) => deps.onRequest!(describeRequest(req, threadId, runId)))
      : setup.llm,
    settings: setup.settings,
    signal: setup.controller.signal,
    state: setup.state,
    tools: new ToolRegistry(),
    trace:
      setup.settings.hook_overrides['builtin:tracing']?.enabled === false ? undefined : recorder,
    trusted: setup.trusted,
    emit,
    recordFile: (path, content, change) => {
      deps.db.threads.setFile(threadId, path, content);
      emit({ event: 'file_changed', data: { path, ...change } });
    },
    setTodos: (todos) => {
      deps.db.threads.setTodos(threadId, todos);
      emit({ event: 'on_todos', data: { todos } });
    },
    compact: setup.compact ? () => setup.compact!(ctx) : undefined,
    askUser: setup.askUser ? (call, reason) => setup.askUser!(ctx, call, reason) : undefined,
    notifyCompaction: async (notice) => {
      for (const hook of setup.hooks) {
        if (!hook.onCompact) continue;
        try {
          const answer = await hook.onCompact(ctx, notice);
          if (notice.phase === 'pre' && answer?.blocked)
            return { blocked: true, reason: answer.reason ?? `vetoed by ${hook.name}` };
        } catch (err) {
          if (isAbortError(err)) throw err;
          ctx.trace?.recordEvent('hook_error', {
            hook: hook.name,
            phase: 'compact',
            message: String(err).slice(0, 500),
          });
        }
      }
      return { blocked: false };
    },
  };
  const append = (msgs: Message[]) => {
    const first = setup.state.messages.length;
    // An assistant message with tool calls is followed within milliseconds by its tool results, whose
    // durable commit also makes this one durable: one fsync per round instead of two.
    const followedByResults =
      msgs.length === 1 && msgs[0].role === 'assistant' && Boolean(msgs[0].tool_calls?.length);
    deps.db.transaction(
      () => {
        deps.spans.flush();
        deps.db.threads.appendMessages(threadId, msgs);
      },
      { deferSync: followedByResults },
    );
    msgs.forEach((message, i) =>
      emit({ event: 'on_message', data: { message, index: first + i } }),
    );
  };

  const finished = (async () => {
    const root = ctx.trace
      ? startRunSpan(recorder, { model: setup.model, threadId, workspace: setup.workspace.root })
      : undefined;
    root?.set('workbench.pid', process.pid);
    const body = async () => runWithGate(deps, ctx, setup, append, emit);
    let outcome: Awaited<ReturnType<typeof runWithGate>>;
    try {
      outcome = root ? await recorder.withSpan(root, body) : await body();
    } catch (err) {
      outcome = {
        summary: {
          stop_reason: 'error',
          iterations: 0,
          error: err instanceof Error ? err.message : String(err),
          input_tokens: 0,
          output_tokens: 0,
        },
      };
    }
    const { summary, blocked } = outcome;
    if (root)
      endRunSpan(root, {
        stop_reason: summary.stop_reason,
        iterations: summary.iterations,
        input_tokens: summary.input_tokens,
        output_tokens: summary.output_tokens,
        error: summary.error,
      });
    deps.db.transaction(() => deps.spans.flush());
    if (!blocked) {
      const state: RunState =
        summary.stop_reason === 'cancelled'
          ? 'cancelled'
          : summary.stop_reason === 'error'
            ? 'failed'
            : 'completed';
      emit({ event: 'on_run_state', data: { state, previous_state: 'running' } });
      emit({ event: 'on_run_finalized', data: { state, stop_reason: summary.stop_reason } });
    }
    if (summary.error) emit({ event: 'error', data: { message: summary.error } });
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
  append: (msgs: Message[]) => void,
  emit: (e: RunEvent) => void,
): Promise<{ summary: RunSummary; blocked?: { by: string; reason: string } }> {
  const empty = (stop_reason: RunStopReason): RunSummary => ({
    stop_reason,
    iterations: 0,
    input_tokens: 0,
    output_tokens: 0,
  });
  // user_message_send: deny-fast — the first hook that blocks wins and no run starts.
  const context: string[] = [];
  for (const hook of setup.hooks) {
    if (!hook.onUserMessage) continue;
    const outcome = await hook.onUserMessage(ctx, setup.text);
    if (outcome.blocked) {
      const by = outcome.by ?? hook.name;
      const reason = outcome.reason ?? 'blocked';
      emit({ event: 'on_blocked', data: { by, reason, target: 'message' } });
      return { summary: empty('blocked'), blocked: { by, reason } };
    }
    if (outcome.additional_context) context.push(outcome.additional_context);
  }
  emit({
    event: 'on_run_created',
    data: { run_id: ctx.runId, session_id: ctx.threadId, agent_name: 'workbench' },
  });
  emit({ event: 'on_run_state', data: { state: 'running', previous_state: 'pending' } });
  emit({
    event: 'on_run_start',
    name: ctx.model,
    data: { workspace: ctx.workspace.root, model: ctx.model },
  });
  const content = context.length
    ? `${setup.text}\n\n<hook_context>\n${context.join('\n')}\n</hook_context>`
    : setup.text;
  append([{ role: 'user', content }]);
  const summary = await runAgentLoop({
    ctx,
    hooks: setup.hooks,
    maxIterations: setup.maxIterations,
    append,
    replaceMessages: (msgs) => deps.db.threads.replaceMessages(ctx.threadId, msgs),
    reportHookFailure: (hook, phase, err) => {
      const message = err instanceof Error ? err.message : String(err);
      ctx.trace?.recordEvent('hook_error', {
        hook: hook.name,
        phase,
        message: message.slice(0, 500),
      });
      emit({
        event: 'on_hook_end',
        data: { hook: hook.name, event: phase, ok: false, reason: message, duration_ms: 0 },
      });
    },
  });
  return { summary };
}

/** An LLM client that reports each request before sending it. */
function observed(llm: LlmClient, onRequest: (req: ModelRequest) => void): LlmClient {
  return {
    chat(req, opts) {
      onRequest(req);
      return llm.chat(req, opts);
    },
  };
}

function describeRequest(req: ModelRequest, threadId: string, runId: string): LastRequest {
  return {
    thread_id: threadId,
    run_id: runId,
    model: req.model,
    at: Date.now(),
    system: req.messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n\n'),
    message_count: req.messages.length,
    estimated_tokens: estimateTokens(req.messages),
  };
}

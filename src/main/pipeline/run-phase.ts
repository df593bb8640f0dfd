/**
 * The phase runner: one `Pipeline` per run over the ordered hooks, every phase run the way the
 * phase table (phases.ts) says — shape, order, failure policy, abort behaviour. A failing hook is
 * never silent: it is reported on the trace and the hooks stream (compose.ts `reportHookFailure`).
 */
import type { ElicitAnswer, Message, ToolCall, ToolResult } from '../../shared/types/index.ts';
import { validate } from '../agent/messages.ts';
import type { ModelRequest } from '../llm/types.ts';
import { composeOnion, reportHookFailure } from './compose.ts';
import { isAbortError } from '../abort.ts';
import type {
  CompactionNotice,
  DenialOutcome,
  ElicitationAsk,
  ElicitationDecision,
  Hook,
  LoadedInstructions,
  ModelCallFn,
  PermissionAnswer,
  PermissionAsk,
  PermissionDenial,
  RunContext,
  RunOutcome,
  WaitNotice,
  StopOutcome,
  ToolBatch,
  ToolBatchOutcome,
  ToolCallFn,
  TurnInfo,
  TurnOutcome,
} from './hook.ts';
import { phase, type PhaseName } from './phases.ts';
import { errorMessage } from '../errors.ts';

/** What user_message_send decided: the first block wins; extra context from every hook otherwise. */
export interface UserMessageVerdict {
  blocked?: { by: string; reason: string };
  context: string[];
}

/** The merged after_turn outcome; `mutate_by` names the hook whose `mutate` won (the last one). */
export interface MergedTurnOutcome extends TurnOutcome {
  mutate_by?: string;
}

export interface MergedStopOutcome extends StopOutcome {
  mutate_by?: string;
}

/** The hooks of one run, with one method per phase. */
export interface Pipeline {
  readonly hooks: readonly Hook[];
  userMessage(ctx: RunContext, text: string): Promise<UserMessageVerdict>;
  beforeAgent(ctx: RunContext): Promise<void>;
  modifyRequest(ctx: RunContext, req: ModelRequest): Promise<ModelRequest>;
  /** The wrap_model_call onion around `terminal`. */
  modelCall(ctx: RunContext, terminal: ModelCallFn): ModelCallFn;
  /** The wrap_tool_call onion around `terminal`. */
  toolCall(ctx: RunContext, terminal: ToolCallFn): ToolCallFn;
  afterTurn(ctx: RunContext, info: TurnInfo): Promise<MergedTurnOutcome>;
  agentStop(ctx: RunContext, msgs: Message[]): Promise<MergedStopOutcome>;
  /** permission_request: the first hook that decides answers. */
  permissionRequest(ctx: RunContext, ask: PermissionAsk): Promise<PermissionAnswer | undefined>;
  /** permission_denied: every hook hears it; the first that says so tells the model it may retry. */
  permissionDenied(ctx: RunContext, denial: PermissionDenial): Promise<DenialOutcome>;
  notification(ctx: RunContext, notice: WaitNotice): Promise<void>;
  /** elicitation: the first hook that answers answers. */
  elicitation(ctx: RunContext, ask: ElicitationAsk): Promise<ElicitationDecision | undefined>;
  /** elicitation_result: the answer as the hooks left it, with the last hook that changed it. */
  elicitationResult(
    ctx: RunContext,
    ask: ElicitationAsk,
    answer: ElicitAnswer,
  ): Promise<ElicitationDecision | undefined>;
  /** after_tool_batch: the first hook that halts ends the run; context accumulates. */
  afterToolBatch(ctx: RunContext, batch: ToolBatch): Promise<ToolBatchOutcome>;
  instructionsLoaded(ctx: RunContext, files: readonly LoadedInstructions[]): Promise<void>;
  /** The compact phase: a 'pre' notice may be vetoed (first veto wins). */
  compact(
    ctx: RunContext,
    notice: CompactionNotice,
  ): Promise<{ blocked: boolean; reason?: string }>;
  /** `callback: "compact"`: the hooks that own compaction compact the thread now. */
  compactThread(ctx: RunContext): Promise<void>;
  afterAgent(ctx: RunContext, outcome: RunOutcome): Promise<void>;
}

/**
 * Runs `call` on every hook implementing the phase's method, in pipeline order, per the table.
 * `fold` takes each result and returns true when it blocks (deny-fast phases then stop);
 * `failClosed` is told when a hook with fail mode 'closed' failed in a phase that can block.
 */
async function sequence<R>(
  name: PhaseName,
  hooks: readonly Hook[],
  ctx: RunContext,
  call: (hook: Hook) => Promise<R>,
  fold: (result: R, hook: Hook) => boolean,
  failClosed?: (hook: Hook, reason: string) => void,
): Promise<void> {
  const spec = phase(name);
  for (const hook of hooks) {
    if (typeof hook[spec.method] !== 'function') continue;
    if (spec.abort === 'propagate') ctx.signal.throwIfAborted();
    let result: R;
    try {
      result = await call(hook);
    } catch (err) {
      if (spec.abort === 'propagate' && isAbortError(err)) throw err;
      reportHookFailure(ctx, hook.name, name, err);
      if (hook.failMode === 'closed' && spec.failClosedBlocks && failClosed) {
        failClosed(hook, `hook failed (fail-closed): ${errorMessage(err)}`);
        if (spec.failure === 'deny-fast') return;
      }
      continue;
    }
    if (fold(result, hook) && spec.failure === 'deny-fast') return;
  }
}

/** The first hook's answer in a phase where the first that answers decides (nothing: undefined). */
async function firstAnswer<R>(
  name: PhaseName,
  hooks: readonly Hook[],
  ctx: RunContext,
  call: (hook: Hook) => Promise<R | void>,
): Promise<R | undefined> {
  let answer: R | undefined;
  await sequence(name, hooks, ctx, call, (out) => {
    if (!out) return false;
    answer = out;
    return true;
  });
  return answer;
}

/**
 * Refuses a `mutate` that would not be a valid conversation (it is then reported as the hook's
 * failure and ignored). The last assistant message may still wait for its tool results: after_turn
 * keeps the turn's own calls and results after the new history.
 */
function checkMutate<T extends { mutate?: Message[] }>(out: T): T {
  if (!out.mutate) return out;
  if (out.mutate.length === 0) throw new Error('mutate refused: the new history has no messages');
  try {
    validate(out.mutate, { openLastTurn: true });
  } catch (err) {
    throw new Error(`mutate refused: ${errorMessage(err)}`, {
      cause: err,
    });
  }
  return out;
}

/** Creates the pipeline of one run. Contract: every method rejects only on abort (after_agent: never). */
export function createPipeline(hooks: readonly Hook[]): Pipeline {
  return {
    hooks,

    async userMessage(ctx, text) {
      const verdict: UserMessageVerdict = { context: [] };
      await sequence(
        'user_message_send',
        hooks,
        ctx,
        (h) => h.onUserMessage!(ctx, text),
        (out, h) => {
          if (out.blocked) {
            verdict.blocked = { by: out.by ?? h.name, reason: out.reason ?? 'blocked' };
            return true;
          }
          if (out.additional_context) verdict.context.push(out.additional_context);
          return false;
        },
        (h, reason) => (verdict.blocked = { by: h.name, reason }),
      );
      return verdict;
    },

    async beforeAgent(ctx) {
      await sequence(
        'before_agent',
        hooks,
        ctx,
        (h) => h.beforeAgent!(ctx, ctx.state),
        () => false,
      );
    },

    async modifyRequest(ctx, req) {
      let current = req;
      await sequence(
        'modify_request',
        hooks,
        ctx,
        (h) => h.modifyRequest!(ctx, current),
        (next) => {
          current = next;
          return false;
        },
      );
      return current;
    },

    modelCall(ctx, terminal) {
      return composeOnion('wrap_model_call', hooks, ctx, terminal, (h, req, next) =>
        h.wrapModelCall!(ctx, req, next),
      );
    },

    toolCall(ctx, terminal) {
      return composeOnion<ToolCall, ToolResult>(
        'wrap_tool_call',
        hooks,
        ctx,
        terminal,
        (h, call, next) => h.wrapToolCall!(ctx, call, next),
        (h, call, reason) => ({
          tool_call_id: call.id,
          name: call.name,
          output: '',
          status: 'blocked',
          error: `blocked by hook ${h.name}: ${reason}`,
        }),
      );
    },

    async afterTurn(ctx, info) {
      const merged: MergedTurnOutcome = {};
      await sequence(
        'after_turn',
        hooks,
        ctx,
        async (h) => checkMutate(await h.afterTurn!(ctx, info)),
        (out, h) => {
          if (out.mutate) Object.assign(merged, { mutate: out.mutate, mutate_by: h.name });
          if (out.callback) merged.callback = out.callback;
          return false;
        },
      );
      return merged;
    },

    async agentStop(ctx, msgs) {
      const merged: MergedStopOutcome = {};
      await sequence(
        'agent_stop',
        hooks,
        ctx,
        async (h) => checkMutate(await h.onAgentStop!(ctx, msgs)),
        (out, h) => {
          // Follow-ups accumulate across hooks.
          if (out.follow_up_messages?.length)
            (merged.follow_up_messages ??= []).push(...out.follow_up_messages);
          if (out.mutate) Object.assign(merged, { mutate: out.mutate, mutate_by: h.name });
          if (out.callback) merged.callback = out.callback;
          return false;
        },
      );
      return merged;
    },

    permissionRequest: (ctx, ask) =>
      firstAnswer('permission_request', hooks, ctx, (h) => h.onPermissionRequest!(ctx, ask)),

    async permissionDenied(ctx, denial) {
      const outcome: DenialOutcome = {};
      await sequence(
        'permission_denied',
        hooks,
        ctx,
        (h) => h.onPermissionDenied!(ctx, denial),
        (out) => {
          if (out?.retry_by) outcome.retry_by ??= out.retry_by;
          return false;
        },
      );
      return outcome;
    },

    async notification(ctx, notice) {
      await sequence(
        'notification',
        hooks,
        ctx,
        (h) => h.onNotification!(ctx, notice),
        () => false,
      );
    },

    elicitation: (ctx, ask) =>
      firstAnswer('elicitation', hooks, ctx, (h) => h.onElicitation!(ctx, ask)),

    async elicitationResult(ctx, ask, answer) {
      let changed: ElicitationDecision | undefined;
      await sequence(
        'elicitation_result',
        hooks,
        ctx,
        (h) => h.onElicitationResult!(ctx, ask, changed ?? answer),
        (out) => {
          if (out) changed = out;
          return false;
        },
      );
      return changed;
    },

    async afterToolBatch(ctx, batch) {
      const outcome: ToolBatchOutcome = {};
      await sequence(
        'after_tool_batch',
        hooks,
        ctx,
        (h) => h.afterToolBatch!(ctx, batch),
        (out) => {
          if (out?.context?.length) (outcome.context ??= []).push(...out.context);
          if (!out?.halt) return false;
          outcome.halt = out.halt;
          return true;
        },
      );
      return outcome;
    },

    async instructionsLoaded(ctx, files) {
      await sequence(
        'instructions_loaded',
        hooks,
        ctx,
        (h) => h.onInstructionsLoaded!(ctx, files),
        () => false,
      );
    },

    async compact(ctx, notice) {
      let veto: { blocked: boolean; reason?: string } = { blocked: false };
      const canVeto = notice.phase === 'pre';
      await sequence(
        'compact',
        hooks,
        ctx,
        (h) => h.onCompact!(ctx, notice),
        (answer, h) => {
          if (!canVeto || !answer?.blocked) return false;
          veto = { blocked: true, reason: answer.reason ?? `vetoed by ${h.name}` };
          return true;
        },
        (_h, reason) => {
          if (canVeto) veto = { blocked: true, reason };
        },
      );
      return veto;
    },

    async compactThread(ctx) {
      await sequence(
        'compact_thread',
        hooks,
        ctx,
        (h) => h.compactThread!(ctx),
        () => false,
      );
    },

    async afterAgent(ctx, outcome) {
      await sequence(
        'after_agent',
        hooks,
        ctx,
        (h) => h.afterAgent!(ctx, outcome),
        () => false,
      );
    },
  };
}

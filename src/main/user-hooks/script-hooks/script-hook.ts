/**
 * A profile's script hook (docs/agents.md#script-hooks-create--next) as a pipeline Hook:
 * before_agent calls Create; modify_request puts what Create set on every request of the run;
 * wrap_model_call answers with Create's delegate instead of the model; agent_stop calls Next once
 * (its delegate's answer replaces the final answer); after_agent calls Next for a run that ended
 * without a final answer (with `error`), then forgets the run.
 */
import { basename } from 'node:path';
import type { HookSource, Message } from '../../../shared/types/index.ts';
import type { LlmResponse } from '../../llm/types.ts';
import type { Hook, RunContext } from '../../pipeline/hook.ts';
import { reportHookFailure } from '../../pipeline/compose.ts';
import type { HookRunStore } from '../../store/types.ts';
import { isAbortError } from '../../abort.ts';
import { errorMessage } from '../../errors.ts';
import { callScript, type ScriptCallTarget, type ScriptRunMemory } from './call.ts';
import { runDelegate } from './delegate.ts';
import { nextPayload, runTools } from './payload.ts';
import {
  parseCreateResult,
  parseNextResult,
  plainMessages,
  type CreateResult,
  type NextResult,
  type ScriptDelegate,
} from './results.ts';
import { SCRIPT_DEADLINE_MS } from './run-script.ts';

export interface ScriptHookOptions {
  /** Absolute path of the script (resolved against the profile file). */
  scriptPath: string;
  profileName: string;
  /** 'workspace' for a script inside the workspace (trust-gated by the caller), else 'user'. */
  source?: HookSource;
  /** Deadline of one Create or Next call (default 10 s). */
  deadlineMs?: number;
  hookRuns?: HookRunStore;
}

/** The hook id (and name) of a profile's script. */
export const scriptHookId = (profile: string): string => `script:${profile}`;

interface RunState extends ScriptRunMemory {
  /** Index of the run's user message: the run's tool calls are after it. */
  from: number;
  /** How many messages Create saw; its `messages` replace them in every request. */
  inputCount: number;
  create?: CreateResult;
  pendingDelegate?: ScriptDelegate;
  /** Create delegated: the model was not called and Next does not run. */
  delegated: boolean;
  nextDone: boolean;
  sent?: Message[];
  response?: LlmResponse;
  modelError?: string;
}

function lastIndex(messages: readonly Message[], role: Message['role']): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === role) return i;
  return -1;
}

/** Creates the hook. Contract: one instance may serve several runs at once (state is per run id). */
export function createScriptHook(o: ScriptHookOptions): Hook {
  const id = scriptHookId(o.profileName);
  const target: ScriptCallTarget = {
    id,
    scriptPath: o.scriptPath,
    profileName: o.profileName,
    timeoutMs: o.deadlineMs ?? SCRIPT_DEADLINE_MS,
    hookRuns: o.hookRuns,
  };
  const runs = new Map<string, RunState>();

  const deliver = (ctx: RunContext, result: NextResult) => {
    if (result.data === undefined) return;
    ctx.emit({
      event: 'on_script_data',
      name: id,
      data: {
        hook: id,
        data: result.data,
        ...(result.metadata ? { metadata: result.metadata } : {}),
      },
    });
  };

  const callNext = async (ctx: RunContext, s: RunState, error?: string) => {
    s.nextDone = true;
    const msgs = ctx.state.messages;
    const payload = nextPayload(s.sent ?? msgs, s.response, runTools(msgs, s.from), error);
    const out = await callScript(ctx, target, s, 'Next', [payload, {}], parseNextResult);
    if (!out.ok || !out.value) return undefined;
    deliver(ctx, out.value);
    return out.value;
  };

  return {
    name: id,
    source: o.source ?? 'workspace',
    description: `Create / Next of ${basename(o.scriptPath)} (profile ${o.profileName})`,
    failMode: 'open',

    async beforeAgent(ctx) {
      const messages = ctx.state.messages;
      const s: RunState = {
        memory: {},
        metadata: {},
        from: Math.max(0, lastIndex(messages, 'user')),
        inputCount: messages.length,
        delegated: false,
        nextDone: false,
      };
      runs.set(ctx.runId, s);
      const out = await callScript(
        ctx,
        target,
        s,
        'Create',
        [structuredClone(messages), {}],
        parseCreateResult,
      );
      if (!out.ok || !out.value) return;
      s.create = out.value;
      if (out.value.metadata) Object.assign(s.metadata, out.value.metadata);
      s.pendingDelegate = out.value.delegate;
    },

    async modifyRequest(ctx, req) {
      const s = runs.get(ctx.runId);
      const c = s?.create;
      if (!s || !c) return req;
      const params = { ...req.params };
      if (c.temperature !== undefined) params.temperature = c.temperature;
      if (c.max_tokens !== undefined) params.max_tokens = c.max_tokens;
      if (c.max_completion_tokens !== undefined)
        params.max_completion_tokens = c.max_completion_tokens;
      // Create's messages stand for the input it saw; what the run added since follows them.
      const messages =
        c.messages && req.messages.length >= s.inputCount
          ? [...(c.messages as Message[]), ...req.messages.slice(s.inputCount)]
          : req.messages;
      return { ...req, messages, params };
    },

    async wrapModelCall(ctx, req, next) {
      const s = runs.get(ctx.runId);
      if (!s) return next(req);
      const delegate = s.pendingDelegate;
      if (delegate) {
        s.pendingDelegate = undefined;
        try {
          const answer = await runDelegate(ctx, id, delegate, plainMessages(ctx.state.messages));
          s.delegated = true;
          if (answer.content)
            ctx.emit({ event: 'on_chat_model_stream', data: { delta: answer.content } });
          return { content: answer.content, tool_calls: [], finish_reason: 'delegated' };
        } catch (err) {
          if (isAbortError(err) || ctx.signal.aborted) throw err;
          // The delegate could not answer: the run's own model does.
          reportHookFailure(ctx, id, 'wrap_model_call', err);
        }
      }
      s.sent = req.messages;
      try {
        s.response = await next(req);
        return s.response;
      } catch (err) {
        s.modelError = errorMessage(err);
        throw err;
      }
    },

    async onAgentStop(ctx, msgs) {
      const s = runs.get(ctx.runId);
      if (!s || s.delegated || s.nextDone) return {};
      const result = await callNext(ctx, s);
      if (!result?.delegate) return {};
      const at = lastIndex(msgs, 'assistant');
      if (at < 0) return {};
      try {
        const answer = await runDelegate(ctx, id, result.delegate, plainMessages(msgs));
        const message: Message = { role: 'assistant', content: answer.content || '(no answer)' };
        const mutate = msgs.slice();
        mutate[at] = message;
        ctx.emit({ event: 'on_message', data: { message, index: at } });
        return { mutate };
      } catch (err) {
        if (isAbortError(err) || ctx.signal.aborted) throw err;
        reportHookFailure(ctx, id, 'agent_stop', err);
        return {};
      }
    },

    async afterAgent(ctx, outcome) {
      const s = runs.get(ctx.runId);
      runs.delete(ctx.runId);
      if (!s || s.delegated || s.nextDone || ctx.signal.aborted) return;
      if (outcome.stop_reason !== 'error' && outcome.stop_reason !== 'max_iterations') return;
      const result = await callNext(
        ctx,
        s,
        s.modelError ?? `the run ended: ${outcome.stop_reason}`,
      );
      if (result?.delegate) {
        ctx.trace?.recordEvent('script.delegate_ignored', {
          hook: id,
          reason: 'the run already ended without an answer',
        });
      }
    },
  };
}

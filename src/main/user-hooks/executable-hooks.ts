/**
 * Executable hooks (Kodelet's protocol, docs/hooks.md) as one pipeline Hook (`executable-hooks`):
 * runs the discovered executables at each lifecycle point — deny-fast for blocking events, input and
 * output rewriting in order, accumulated follow-ups. One Hook for the whole format keeps the pipeline
 * order simple; every executable still gets its own span, run record and HookInfo.
 */
import type { HookSource, Message, ToolCall, ToolResult, WorkbenchSettings } from '../../shared/types/index.ts';
import { EXECUTABLE_HOOK_TIMEOUT_MS } from '../../shared/constants.ts';
import { resolveCompaction } from '../middleware/compaction.ts';
import type { Hook, RunContext, StopOutcome, TurnInfo, TurnOutcome } from '../pipeline/hook.ts';
import type { HookRunStore } from '../store/types.ts';
import { buildHookEnv } from '../env/child-env.ts';
import { markRewritten, refuseRewrittenInput } from './input-guard.ts';
import { parseHookJson } from './json-output.ts';
import { processFailure, runAndRecord, targetOf } from './record.ts';
import { hookSandbox, type HookProcessResult, type HookProcessSpec, type HookSandboxContext } from './runner.ts';
import { callHookServer } from './hook-server.ts';
import { runnableFileVersion, type ExecutableHookEntry } from './executable-discovery.ts';
import { basePayload, executableDecision, type ExecutableEvent } from './executable-events.ts';
import {
  fromStructured,
  readAfterToolResult,
  readBlockResult,
  readLoopResult,
  toExecutableMessages,
  toStructured,
  type UsageInfo,
} from './executable-protocol.ts';
import type { HookReading, UserHookRef } from './types.ts';
import { dialectToolName, fromDialectInput, toDialectInput, toDialectResponse } from './tool-dialect.ts';
import { errorMessage } from '../errors.ts';
import { findRecipe } from '../recipes/loader.ts';
import { renderRecipe } from '../recipes/render.ts';

/**
 * The prompt of recipe `name` for a hook's `callback_args` (`arguments` fills `$ARGUMENTS`, every
 * key fills `{{.key}}`); undefined when no recipe has that name (docs/recipes.md).
 */
async function recipeFollowUp(ctx: RunContext, name: string, args: Record<string, string>): Promise<string | undefined> {
  const recipe = await findRecipe({ workspace: ctx.workspace.root, home: ctx.home, trusted: ctx.trusted }, name);
  if (!recipe) return undefined;
  ctx.setMetadata?.('invoked_recipe', name);
  return renderRecipe(recipe.body, args.arguments ?? '', args);
}

export interface ExecutableHooksOptions {
  entries: ExecutableHookEntry[];
  settings: WorkbenchSettings;
  hookRuns?: HookRunStore;
}

/** The ref (timeout, fail mode) of an entry under the settings' overrides. */
export function executableRef(e: ExecutableHookEntry, settings: WorkbenchSettings): UserHookRef {
  const o = settings.hook_overrides[e.id] ?? {};
  // A hook that asked for containment blocks what it guards when it cannot run in it.
  const failMode = o.fail_mode ?? (o.sandbox ? 'closed' : 'open');
  const persistent = o.persistent ?? e.persistent;
  return { id: e.id, name: e.name, event: e.event ?? 'unknown', failMode, timeoutMs: o.timeout_ms ?? EXECUTABLE_HOOK_TIMEOUT_MS, ...(o.sandbox ? { sandbox: true } : {}), ...(persistent ? { persistent: true } : {}) };
}

export interface ExecutableInvocation {
  reading: HookReading;
  /** The validated result object; undefined on failure or empty output. */
  value?: Record<string, unknown>;
}

/** Payloads already serialised: the hooks of one event that see the same state share one object. */
const payloadJson = new WeakMap<object, string>();
function serialized(payload: object): string {
  let json = payloadJson.get(payload);
  if (json === undefined) payloadJson.set(payload, (json = JSON.stringify(payload)));
  return json;
}

/**
 * Runs one executable hook (`<hook> run`, payload on stdin) and reads its answer with `check`.
 * `fileVersion` is the hook file's mtime when the caller has just checked it (see runnableFileVersion);
 * `hookEnv` gives the hook's environment when the caller keeps one (default: built for this call).
 * Contract: never rejects; failures are in `reading.error`; `payload` must not change after the call.
 */
export async function invokeExecutableHook(
  target: Parameters<typeof runAndRecord>[0],
  ref: UserHookRef,
  path: string,
  cwd: string,
  payload: object,
  check: (o: Record<string, unknown>) => string,
  sandbox: HookSandboxContext,
  fileVersion?: number,
  hookEnv: () => NodeJS.ProcessEnv = () => buildHookEnv(cwd),
): Promise<ExecutableInvocation> {
  const stdin = serialized(payload);
  let value: Record<string, unknown> | undefined;
  // A persistent hook's environment is built only when its server starts (buildHookEnv reads all of process.env).
  const spec = { command: path, args: ref.persistent ? [] : ['run'], cwd, env: ref.persistent ? {} : hookEnv(), stdin, timeoutMs: ref.timeoutMs, ...hookSandbox(ref.sandbox, sandbox, cwd, [path]) };
  const read = (res: HookProcessResult) => {
    const r = readExecutableResult(res, check);
    value = r.value;
    return r.reading;
  };
  const exec = ref.persistent ? (s: HookProcessSpec) => callHookServer(s, ref.event, hookEnv, fileVersion) : undefined;
  const { reading } = await runAndRecord(target, ref, stdin, spec, read, exec);
  return { reading, value };
}

/**
 * Reads an executable hook's process result: failures, then strict JSON, then `check` (the event's schema).
 * Contract: a truncated, unparsable or schema-invalid stdout never yields a value.
 */
export function readExecutableResult(res: HookProcessResult, check: (o: Record<string, unknown>) => string): ExecutableInvocation {
  const failure = processFailure(res);
  if (failure) return { reading: { decision: 'error', error: failure } };
  if (res.exitCode !== 0) {
    const firstLine = res.stderr.trim().split('\n')[0]?.slice(0, 300);
    return { reading: { decision: 'error', error: `exited with ${res.exitCode ?? res.signal}${firstLine ? `: ${firstLine}` : ''}` } };
  }
  const parsed = parseHookJson(res.stdout);
  if (parsed.kind === 'empty') return { reading: { decision: 'none' } };
  if (parsed.kind === 'invalid') return { reading: { decision: 'error', error: parsed.error, jsonValid: false } };
  try {
    const decision = check(parsed.value);
    const reason = typeof parsed.value.reason === 'string' ? parsed.value.reason : undefined;
    return { reading: { decision, reason, jsonValid: true }, value: parsed.value };
  } catch (err) {
    return { reading: { decision: 'error', error: errorMessage(err), jsonValid: false } };
  }
}

/** `build()` on first use only (not at all when no hook of the event runs). */
function once<V>(build: () => V): () => V {
  let built: { value: V } | undefined;
  return () => (built ??= { value: build() }).value;
}

/** `build(key)`, built again only when `key` changes (the hooks that see the same state share one payload). */
function lastFor<K, V>(build: (key: K) => V): (key: K) => V {
  let last: { key: K; value: V } | undefined;
  return (key) => (last && last.key === key ? last.value : (last = { key, value: build(key) }).value);
}

const blockedResult = (call: ToolCall, by: string, reason: string): ToolResult => ({
  tool_call_id: call.id,
  name: call.name,
  output: '',
  error: `blocked by hook ${by}: ${reason}`,
  status: 'blocked',
});

/** Creates the `executable-hooks` pipeline Hook. Contract: its methods never reject except on abort. */
export function createExecutableHooks(opts: ExecutableHooksOptions, source: HookSource): Hook {
  const of = (event: ExecutableEvent) => opts.entries.filter((e) => e.event === event);
  // Usage of the last turn per run, for the agent_stop payload.
  const lastUsage = new Map<string, UsageInfo>();
  const autoCompact = () => opts.settings.hook_overrides['builtin:summarization']?.enabled !== false;
  // The hooks' environment, built once per workspace: reading all of process.env for every call cost
  // a spawned hook 0.2 ms in a run (docs/performance.md). Never changed: each process gets a copy.
  const envs = new Map<string, NodeJS.ProcessEnv>();
  const hookEnv = (root: string) => () => envs.get(root) ?? envs.set(root, buildHookEnv(root)).get(root)!;
  // The context window and compaction trigger the run really uses (agent.yaml, else the defaults).
  const limits = (ctx: RunContext) => resolveCompaction(ctx.profile.context_window, ctx.profile.compaction);

  // Re-checked right before each run so a `.disable` rename or removal applies to the very next event.
  async function each(ctx: RunContext, event: ExecutableEvent, fn: (e: ExecutableHookEntry, ref: UserHookRef, version: number) => Promise<boolean | void>): Promise<void> {
    for (const e of of(event)) {
      ctx.signal.throwIfAborted();
      const version = runnableFileVersion(e.path);
      if (version === undefined) continue;
      if ((await fn(e, executableRef(e, opts.settings), version)) === false) return;
    }
  }
  // The event's base fields, then its own.
  const payload = (ctx: RunContext, event: ExecutableEvent, fields: object): object => ({
    ...basePayload(event, ctx.threadId, ctx.workspace.root),
    // Kodelet's marker for a hook running inside a subagent (docs/hooks.md).
    ...(ctx.depth ? { invoked_by: 'subagent' } : {}),
    ...(ctx.recipe ? { recipe_name: ctx.recipe } : {}),
    ...fields,
  });
  // The answer is read as the event table says.
  const run = (ctx: RunContext, e: ExecutableHookEntry, ref: UserHookRef, version: number, event: ExecutableEvent, body: object) =>
    invokeExecutableHook(
      targetOf(ctx, opts.hookRuns),
      ref,
      e.path,
      ctx.workspace.root,
      body,
      (o) => executableDecision(event, o),
      { settings: ctx.settings.sandbox, workbenchHome: ctx.home },
      version,
      hookEnv(ctx.workspace.root),
    );

  return {
    name: 'executable-hooks',
    source,

    async onUserMessage(ctx, text) {
      let outcome: { blocked: boolean; reason?: string; by?: string } = { blocked: false };
      const body = once(() => payload(ctx, 'user_message_send', { message: text }));
      await each(ctx, 'user_message_send', async (e, ref, version) => {
        const { reading, value } = await run(ctx, e, ref, version, 'user_message_send', body());
        if (value && readBlockResult(value).blocked) {
          outcome = { blocked: true, reason: reading.reason || 'blocked', by: e.name };
          return false; // deny-fast: later hooks do not run
        }
        if (reading.error && ref.failMode === 'closed') {
          outcome = { blocked: true, reason: `hook failed (fail-closed): ${reading.error}`, by: e.name };
          return false;
        }
      });
      return outcome;
    },

    async wrapToolCall(ctx, call, next) {
      // Tools are shown with Kodelet's names and input fields (`bash {command}`…), and mapped back.
      const toolName = dialectToolName(ctx.tools, 'kodelet', call.name);
      const input = (c: ToolCall) => toDialectInput(ctx.tools, 'kodelet', c.name, c.args, ctx.workspace.root);
      let current = call;
      let rewrittenBy: string | undefined;
      let blocked: ToolResult | undefined;
      // Built again only after a hook rewrote the input.
      const before = lastFor((c: ToolCall) => payload(ctx, 'before_tool_call', { tool_name: toolName, tool_input: input(c), tool_user_id: call.id }));
      await each(ctx, 'before_tool_call', async (e, ref, version) => {
        const { reading, value } = await run(ctx, e, ref, version, 'before_tool_call', before(current));
        let reason: string | undefined;
        if (value) {
          const r = readBlockResult(value);
          if (r.blocked) reason = r.reason || 'blocked';
          else if (r.input) {
            const args = fromDialectInput(ctx.tools, 'kodelet', call.name, r.input);
            reason = await refuseRewrittenInput(ctx, current.name, args);
            if (!reason) {
              current = { ...current, args, raw_args: JSON.stringify(args) };
              rewrittenBy = e.name;
            }
          }
        } else if (reading.error && ref.failMode === 'closed') {
          reason = `hook failed (fail-closed): ${reading.error}`;
        }
        if (reason === undefined) return true;
        blocked = blockedResult(call, e.name, reason);
        ctx.emit({ event: 'on_blocked', name: call.name, data: { by: e.name, reason, target: 'tool_call', tool_call_id: call.id } });
        return false;
      });
      // A blocked call still reaches after_tool_call hooks, marked, so audit loggers see it.
      let result = blocked ?? (await next(current));
      // Built again only after a hook rewrote the output.
      const after = lastFor((r: ToolResult) => {
        const metadata = toDialectResponse(ctx.tools, 'kodelet', current.name, current.args, r, ctx.workspace.root);
        return payload(ctx, 'after_tool_call', {
          tool_name: toolName,
          tool_input: input(current),
          tool_output: toStructured(r, toolName, metadata),
          tool_user_id: call.id,
          blocked: r.status === 'blocked',
        });
      });
      await each(ctx, 'after_tool_call', async (e, ref, version) => {
        const { value } = await run(ctx, e, ref, version, 'after_tool_call', after(result));
        const output = value ? readAfterToolResult(value).output : undefined;
        // A blocked call stays blocked whatever an after hook answers.
        if (output && !blocked) result = fromStructured(call, output, result);
      });
      return rewrittenBy && !blocked ? markRewritten(result, rewrittenBy, current.args) : result;
    },

    async afterTurn(ctx, info: TurnInfo): Promise<TurnOutcome> {
      const input = info.response.usage?.input_tokens ?? 0;
      const output = info.response.usage?.output_tokens ?? 0;
      const { contextWindow, trigger } = limits(ctx);
      const usage: UsageInfo = { input_tokens: input, output_tokens: output, current_context_window: input + output, max_context_window: contextWindow };
      lastUsage.set(ctx.runId, usage);
      const outcome: TurnOutcome = {};
      const body = once(() =>
        payload(ctx, 'after_turn', {
          turn_number: info.turn,
          tools_used: info.response.tool_calls.length > 0,
          usage,
          auto_compact_enabled: autoCompact(),
          auto_compact_threshold: trigger,
        }),
      );
      await each(ctx, 'after_turn', async (e, ref, version) => {
        const { value } = await run(ctx, e, ref, version, 'after_turn', body());
        if (value) Object.assign(outcome, readLoopResult(value, false));
      });
      const end = once(() => payload(ctx, 'turn_end', { response: info.response.content, turn_number: info.turn }));
      await each(ctx, 'turn_end', async (e, ref, version) => {
        await run(ctx, e, ref, version, 'turn_end', end());
      });
      return outcome;
    },

    async onAgentStop(ctx, msgs: Message[]): Promise<StopOutcome> {
      const outcome: StopOutcome = {};
      const { contextWindow, trigger } = limits(ctx);
      const body = once(() =>
        payload(ctx, 'agent_stop', {
          messages: toExecutableMessages(msgs),
          usage: lastUsage.get(ctx.runId) ?? { input_tokens: 0, output_tokens: 0, current_context_window: 0, max_context_window: contextWindow },
          invoked_recipe: ctx.recipe ?? '',
          auto_compact_enabled: autoCompact(),
          auto_compact_threshold: trigger,
        }),
      );
      await each(ctx, 'agent_stop', async (e, ref, version) => {
        const { value } = await run(ctx, e, ref, version, 'agent_stop', body());
        if (!value) return;
        const r = readLoopResult(value, true);
        // Follow-ups accumulate across hooks (docs/hooks.md, "Accumulation").
        if (r.follow_up_messages?.length) (outcome.follow_up_messages ??= []).push(...r.follow_up_messages);
        if (r.mutate) outcome.mutate = r.mutate;
        if (r.callback) outcome.callback = r.callback;
        if (r.recipe) {
          const prompt = await recipeFollowUp(ctx, r.recipe.name, r.recipe.args);
          if (prompt) (outcome.follow_up_messages ??= []).push(prompt);
          else ctx.emit({ event: 'error', data: { message: `hook ${e.name}: unknown recipe ${r.recipe.name}`, code: 'diagnostic' } });
        }
      });
      return outcome;
    },

    async afterAgent(ctx) {
      lastUsage.delete(ctx.runId);
    },
  };
}

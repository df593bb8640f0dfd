/**
 * The Claude Code dialect as one pipeline Hook (`claude-hooks`): settings-file handlers mapped onto
 * the lifecycle points. Matching handlers of one event run in parallel; deny beats ask beats allow.
 * `ask` on a tool call shows the user an approval prompt (RunContext.askUser); with nobody to ask
 * (the CLI) or for a user message it is a deny with the reason "hook asked for confirmation".
 */
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename } from 'node:path';
import type { HookSource, Message, Todo, ToolCall, ToolResult, WorkbenchSettings } from '../../shared/types/index.ts';
import { CLAUDE_SESSION_END_MAX_MS } from '../../shared/constants.ts';
import type { ElicitationDecision, Hook, PermissionAnswer, RunContext, StopOutcome, UserMessageOutcome } from '../pipeline/hook.ts';
import type { HookRunStore } from '../store/types.ts';
import { readClaudeResult, type ClaudeVerdict } from './claude-output.ts';
import type { ClaudeHandler } from './claude-config.ts';
import { claudeRuleMatches, type RuleSubject } from './claude-rules.ts';
import { claudeToolName, fromClaudeInput, matcherMatches, permissionMode, toClaudeInput } from './claude-tools.ts';
import { buildHookEnv } from '../env/child-env.ts';
import { markRewritten, refuseRewrittenInput } from './input-guard.ts';
import { allowByHook, promptKind } from '../middleware/approval.ts';
import { runAndRecord, targetOf, type RecordTarget } from './record.ts';
import { hookSandbox, runHookProcess, type HookProcessResult, type HookProcessSpec, type HookSandboxContext } from './runner.ts';
import { postHttpHook } from './claude-http.ts';
import { askPromptHook, type PromptModel } from './claude-prompt.ts';
import { runAgentHook, type AgentHookRunner } from './claude-agent.ts';
import { callMcpToolHook, managerMcpRunner, type McpHookRunner } from './claude-mcp-tool.ts';
import type { McpManager } from '../mcp/manager.ts';
import { ruleRefusal, type PermissionRule } from '../middleware/permission-rules.ts';
import { createBackgroundHooks } from './claude-background.ts';
import { elicitationFields, elicitationResultFields, expansionFields, instructionsFields, stopFailure } from './claude-events.ts';
import { reviewTasks, taskFields, type TaskEvent, type TaskVerdict } from './claude-tasks.ts';
import { skillHandlerGate, skillsReadBy } from './skill-hooks.ts';
import { writeTranscript } from './transcript.ts';
import { toDialectResponse } from './tool-dialect.ts';
import { createEnvFile, readEnvFile, removeEnvFile } from './env-file.ts';
import { createRunWatches, matcherPaths, type FileEvent } from './claude-file-watch.ts';
import type { UserHookRef } from './types.ts';

/** Stop-hook blocks in a row before we let the agent stop anyway (Claude Code's cap). */
const STOP_BLOCK_CAP = 8;
export const ASK_REASON = 'hook asked for confirmation';
/** Handlers of one event running at the same time (so a flood of handlers cannot starve the run); results keep config order. */
const MAX_PARALLEL = 8;

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export interface ClaudeHooksOptions {
  handlers: ClaudeHandler[];
  settings: WorkbenchSettings;
  home: string;
  hookRuns?: HookRunStore;
  /** What http handlers' headers may name (default process.env; the CLI's holds what its launcher handed over). */
  variables?: Readonly<Record<string, string | undefined>>;
  /** The run's permission rules: an agent handler's own reads keep to them. */
  rules?: readonly PermissionRule[];
  /** The workbench's MCP servers, for an mcp_tool handler whose tool the run has not registered (yet: SessionStart). */
  mcp?: McpManager;
}

export interface ClaudeOutcome {
  handler: ClaudeHandler;
  verdict: ClaudeVerdict;
}

export function claudeRef(h: ClaudeHandler, settings: WorkbenchSettings): UserHookRef {
  // A hook that asked for containment blocks what it guards when it cannot run in it; one with
  // `onFailure: "block"` whenever it fails. The user's own override in the Hooks tab wins.
  const failMode = settings.hook_overrides[h.id]?.fail_mode ?? (h.sandbox || h.failClosed ? 'closed' : 'open');
  return { id: h.id, name: h.name, event: h.event, failMode, timeoutMs: h.timeoutMs, ...(h.sandbox ? { sandbox: true } : {}), ...(h.statusMessage ? { statusMessage: h.statusMessage } : {}) };
}

/**
 * The process spec of a handler: shell form via /bin/sh -c, exec form (`args`) without a shell. Its
 * environment is the user's (minus secrets), its settings file's `env` block, then `extra`; a plugin's
 * handler also gets `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA` (created on first run); a handler
 * that opted in runs in the sandbox of `sandbox`, where a plugin's folders are read-only.
 */
export function claudeSpec(h: ClaudeHandler, workspace: string, stdin: string, sandbox: HookSandboxContext, extra: Record<string, string> = {}): HookProcessSpec {
  const plugin: Record<string, string> = {
    ...(h.pluginRoot ? { CLAUDE_PLUGIN_ROOT: h.pluginRoot } : {}),
    ...(h.pluginData ? { CLAUDE_PLUGIN_DATA: h.pluginData } : {}),
  };
  const env = buildHookEnv(workspace, { claude: true, extra: { ...h.env, ...plugin, ...extra } });
  const expand = (s: string) =>
    s.replaceAll('${CLAUDE_PROJECT_DIR}', workspace).replaceAll('${WORKBENCH_PROJECT_DIR}', workspace).replaceAll('${CLAUDE_PLUGIN_ROOT}', h.pluginRoot ?? '${CLAUDE_PLUGIN_ROOT}').replaceAll('${CLAUDE_PLUGIN_DATA}', h.pluginData ?? '${CLAUDE_PLUGIN_DATA}');
  // Shell form: the shell expands $CLAUDE_PROJECT_DIR and $CLAUDE_PLUGIN_ROOT from the env, so a folder name is never parsed as code.
  const boxed = hookSandbox(h.sandbox, sandbox, workspace, [h.pluginRoot, h.pluginData].filter((p) => p !== undefined));
  if (!h.args) return { command: h.command, shell: true, cwd: workspace, env, stdin, timeoutMs: h.timeoutMs, ...boxed };
  return { command: expand(h.command), args: h.args.map(expand), cwd: workspace, env, stdin, timeoutMs: h.timeoutMs, ...boxed };
}

/**
 * What a handler that runs no process needs: the variables http headers name, the model prompts
 * ask, and for an agent handler the model with the workspace (given its root) and its read tools.
 */
export interface HandlerRunner {
  variables?: Readonly<Record<string, string | undefined>>;
  model?: PromptModel;
  agent?: (workspaceRoot: string) => Promise<AgentHookRunner>;
  /** For an mcp_tool handler: the workspace's MCP tools. */
  mcp?: (workspaceRoot: string) => Promise<McpHookRunner>;
}

/** How a handler runs: a process, an http handler's POST of the spec's stdin, or a prompt handler's question to the model. */
export function claudeExec(h: ClaudeHandler, runner: HandlerRunner = {}): (spec: HookProcessSpec) => Promise<HookProcessResult> {
  const { http, prompt, agent, mcpTool } = h;
  if (http) return (spec) => postHttpHook(http, spec, runner.variables ?? process.env);
  if (prompt) return (spec) => askPromptHook(prompt, spec, runner.model);
  if (agent) return async (spec) => runAgentHook(agent, spec, await runner.agent?.(spec.cwd));
  if (mcpTool) return async (spec) => callMcpToolHook(mcpTool, spec, await runner.mcp?.(spec.cwd));
  return runHookProcess;
}

/** Runs one handler with `input` on stdin (an http handler: as the body it POSTs) and reads its verdict. Contract: never rejects. */
export async function invokeClaudeHandler(
  target: RecordTarget,
  h: ClaudeHandler,
  settings: WorkbenchSettings,
  workspace: string,
  input: object,
  workbenchHome: string,
  extraEnv: Record<string, string> = {},
  runner: HandlerRunner = {},
): Promise<ClaudeOutcome> {
  const stdin = JSON.stringify(input);
  if (h.pluginData) await mkdir(h.pluginData, { recursive: true }).catch(() => undefined);
  let verdict: ClaudeVerdict = {};
  const spec = claudeSpec(h, workspace, stdin, { settings: settings.sandbox, workbenchHome }, extraEnv);
  await runAndRecord(
    target,
    claudeRef(h, settings),
    stdin,
    spec,
    (res) => {
      const r = readClaudeResult(h.event, res);
      verdict = r.verdict;
      return r.reading;
    },
    claudeExec(h, runner),
  );
  return { handler: h, verdict };
}

interface Aggregate {
  block?: { by: string; reason: string };
  /** `continue: false`: the run ends (also set in `block`, which it implies for this call). */
  halt?: { by: string; reason: string };
  ask?: { by: string; reason: string };
  /** Some handler said allow and none denied or asked. */
  allow?: boolean;
  context: string[];
  updatedInput?: { by: string; input: Record<string, unknown> };
  updatedToolOutput?: string;
  updatedMCPToolOutput?: string;
}

/** deny > ask > allow, in config order within each level; failures count as deny when fail-closed. */
function aggregate(outcomes: ClaudeOutcome[], settings: WorkbenchSettings, blocking: boolean): Aggregate {
  const agg: Aggregate = { context: [] };
  const failClosed = (o: ClaudeOutcome) => blocking && o.verdict.failed !== undefined && claudeRef(o.handler, settings).failMode === 'closed';
  const deny = outcomes.find((o) => o.verdict.halt !== undefined || o.verdict.block !== undefined || failClosed(o));
  if (deny) {
    const reason = deny.verdict.halt ?? deny.verdict.block ?? `hook failed (fail-closed): ${deny.verdict.failed}`;
    agg.block = { by: deny.handler.name, reason };
  } else {
    const ask = outcomes.find((o) => o.verdict.ask !== undefined);
    if (ask && blocking) agg.ask = { by: ask.handler.name, reason: ask.verdict.ask ? `${ASK_REASON}: ${ask.verdict.ask}` : ASK_REASON };
    else agg.allow = outcomes.some((o) => o.verdict.allow);
  }
  const halt = outcomes.find((o) => o.verdict.halt !== undefined);
  if (halt) agg.halt = { by: halt.handler.name, reason: halt.verdict.halt as string };
  for (const o of outcomes) {
    if (o.verdict.additionalContext) agg.context.push(o.verdict.additionalContext);
    if (o.verdict.updatedInput && !agg.updatedInput) agg.updatedInput = { by: o.handler.name, input: o.verdict.updatedInput };
    if (o.verdict.updatedToolOutput !== undefined) agg.updatedToolOutput = o.verdict.updatedToolOutput;
    if (o.verdict.updatedMCPToolOutput !== undefined) agg.updatedMCPToolOutput = o.verdict.updatedMCPToolOutput;
  }
  return agg;
}

/** A finished call as Claude Code's post-tool events tell it: name, input, id, then its response or its error. */
function finishedCall(ctx: RunContext, call: ToolCall, result: ToolResult) {
  const common = { tool_name: claudeToolName(ctx.tools, call.name), tool_input: toClaudeInput(ctx.tools, call.name, call.args, ctx.workspace.root), tool_use_id: call.id };
  if (result.error !== undefined) return { ...common, error: result.error };
  return { ...common, tool_response: toDialectResponse(ctx.tools, 'claude', call.name, call.args, result, ctx.workspace.root) };
}

/** Creates the `claude-hooks` pipeline Hook. Contract: its methods never reject except on abort. */
export function createClaudeHooks(opts: ClaudeHooksOptions, source: HookSource): Hook {
  const stopBlocks = new Map<string, number>();
  const skills = skillHandlerGate(opts.handlers, opts.hookRuns);
  const background = createBackgroundHooks();
  // SessionStart additionalContext / plain stdout, a system block of every request of the run.
  const sessionContext = new Map<string, string>();
  // The run's CLAUDE_ENV_FILE.
  const envFiles = new Map<string, string>();
  const watches = createRunWatches();

  async function fire(
    ctx: RunContext,
    event: string,
    matchValue: string | undefined,
    fields: Record<string, unknown>,
    how: { atEnd?: boolean; env?: Record<string, string>; call?: RuleSubject } = {},
  ): Promise<ClaudeOutcome[]> {
    const atEnd = how.atEnd ?? false;
    const matching = opts.handlers.filter(
      (h) => h.event === event && (matchValue === undefined || matcherMatches(h.matcher, matchValue)) && (!h.if || (how.call !== undefined && claudeRuleMatches(h.if, how.call, { workspace: ctx.workspace.root, home: homedir() }))) && skills.takesPart(ctx, h),
    );
    if (matching.length === 0) return [];
    for (const h of matching) if (h.once) skills.ranOnce(ctx, h);
    // SessionEnd still runs after a cancel; everything else stops with the run.
    if (!atEnd) ctx.signal.throwIfAborted();
    const input = {
      session_id: ctx.threadId,
      transcript_path: writeTranscript({ home: opts.home, threadId: ctx.threadId, cwd: ctx.workspace.root, tools: ctx.tools }, ctx.state.messages),
      cwd: ctx.workspace.root,
      permission_mode: permissionMode(ctx.approvalMode ?? ctx.settings.approval_mode),
      hook_event_name: event,
      // Inside a subagent every input names it, as Claude Code's do (docs/hooks.md).
      ...(ctx.depth ? { agent_id: ctx.threadId, agent_type: ctx.profile.name } : {}),
      ...fields,
    };
    // SessionEnd runs after a cancel too, so it must not be cancelled by the run's signal.
    const target = atEnd ? { ...targetOf(ctx, opts.hookRuns), signal: undefined } : targetOf(ctx, opts.hookRuns);
    // What runs at the end cannot hold the run's end for a handler's whole (10-minute) timeout.
    const handlers = atEnd ? matching.map((h) => ({ ...h, timeoutMs: Math.min(h.timeoutMs, CLAUDE_SESSION_END_MAX_MS) })) : matching;
    const runner: HandlerRunner = {
      variables: opts.variables,
      model: { llm: ctx.llm, model: ctx.model },
      agent: async () => ({ llm: ctx.llm, model: ctx.model, workspace: ctx.workspace, tools: ctx.tools, refuse: (call) => ruleRefusal(opts.rules ?? [], ctx.tools, call, ctx.workspace) }),
      mcp: async () => {
        const servers = opts.mcp && managerMcpRunner(opts.mcp, { workspace: ctx.workspace.root, home: ctx.home, settings: ctx.settings, trusted: ctx.trusted }, ctx.workspace);
        return { workspace: ctx.workspace, find: async (name) => ctx.tools.get(name) ?? servers?.find(name) };
      },
    };
    const invoke = (h: ClaudeHandler) => invokeClaudeHandler(target, h, opts.settings, ctx.workspace.root, input, opts.home, how.env, runner);
    // `systemMessage` is for the user: a notice in the chat (and the reason of the hook run record).
    const tell = (o: ClaudeOutcome) => {
      if (o.verdict.systemMessage) ctx.emit({ event: 'on_hook_message', name: o.handler.name, data: { hook: o.handler.name, event, message: o.verdict.systemMessage, kind: 'message' } });
    };
    // At the run's end nothing is left to hold: a background handler there runs like any other.
    const inBackground = (h: ClaudeHandler) => h.background !== undefined && !atEnd;
    for (const h of handlers.filter(inBackground)) {
      background.track(ctx.runId, () => invoke(h), (o) => {
        tell(o);
        const said = [o.verdict.additionalContext, o.handler.background === 'rewake' ? o.verdict.block : undefined].filter((t): t is string => Boolean(t));
        for (const text of said) background.addContext(ctx.runId, `[${event} hook ${o.handler.name}] ${text}`);
      });
    }
    const outcomes = await mapLimited(
      handlers.filter((h) => !inBackground(h)),
      MAX_PARALLEL,
      invoke,
    );
    outcomes.forEach(tell);
    return outcomes;
  }

  /**
   * SessionStart with `source`: what its handlers export reaches the run's later commands, what they
   * add for the model joins every later request of the run.
   */
  async function sessionStart(ctx: RunContext, source: 'startup' | 'resume' | 'compact'): Promise<ClaudeOutcome[]> {
    const envFile = envFiles.get(ctx.runId);
    const outcomes = await fire(ctx, 'SessionStart', source, { source, model: ctx.model }, { env: envFile ? { CLAUDE_ENV_FILE: envFile } : {} });
    if (envFile && ctx.toolEnv) Object.assign(ctx.toolEnv, readEnvFile(envFile));
    const context = outcomes.map((o) => o.verdict.additionalContext).filter((c): c is string => Boolean(c));
    const before = sessionContext.get(ctx.runId);
    if (context.length) sessionContext.set(ctx.runId, [...(before ? [before] : []), ...context].join('\n'));
    return outcomes;
  }

  /** Shows the user why a hook ended the run (`stopReason`, for the user, not the model). */
  const stopNotice = (ctx: RunContext, event: string, halt: { by: string; reason: string }) =>
    ctx.emit({ event: 'on_hook_message', name: halt.by, data: { hook: halt.by, event, message: halt.reason, kind: 'stop' } });

  /** One task event's handlers (no matcher), read as blocking: a block or a fail-closed failure refuses the change. */
  const decideTask = async (ctx: RunContext, event: TaskEvent, todo: Todo): Promise<TaskVerdict> => {
    const agg = aggregate(await fire(ctx, event, undefined, taskFields(todo)), opts.settings, true);
    return { context: agg.context, ...(agg.halt ? { halt: agg.halt } : {}), ...(agg.block ? { refused: agg.block } : {}) };
  };

  /**
   * The first handler's answer to an elicitation, in config order: exit 2 (or `continue: false`)
   * declines it, its stderr shown to the user; `hookSpecificOutput.action` answers it.
   */
  const elicitationDecision = (ctx: RunContext, event: string, outcomes: ClaudeOutcome[]): ElicitationDecision | undefined => {
    for (const o of outcomes) {
      const refusal = o.verdict.block ?? o.verdict.halt;
      if (refusal !== undefined) {
        ctx.emit({ event: 'on_hook_message', name: o.handler.name, data: { hook: o.handler.name, event, message: refusal, kind: 'message' } });
        return { action: 'decline', by: o.handler.name };
      }
      if (o.verdict.elicitation) return { ...o.verdict.elicitation, by: o.handler.name };
    }
    return undefined;
  };

  const blocked = (ctx: RunContext, call: ToolCall, by: string, reason: string): ToolResult => {
    ctx.emit({ event: 'on_blocked', name: call.name, data: { by, reason, target: 'tool_call', tool_call_id: call.id } });
    return { tool_call_id: call.id, name: call.name, output: '', error: `blocked by hook ${by}: ${reason}`, status: 'blocked' };
  };

  return {
    name: 'claude-hooks',
    source,

    async beforeAgent(ctx, state) {
      // A subagent fires SubagentStart instead of SessionStart (its context joins the subagent's requests).
      if (ctx.depth) {
        const outcomes = await fire(ctx, 'SubagentStart', ctx.profile.name, { agent_id: ctx.threadId, agent_type: ctx.profile.name });
        const context = outcomes.map((o) => o.verdict.additionalContext).filter((c): c is string => Boolean(c));
        if (context.length) sessionContext.set(ctx.runId, context.join('\n'));
        return;
      }
      const source = state.messages.filter((m) => m.role === 'user').length > 1 ? 'resume' : 'startup';
      // CLAUDE_ENV_FILE: the `export` lines SessionStart hooks append reach the run's later commands.
      const envFile = createEnvFile(opts.home, ctx.runId);
      if (envFile) envFiles.set(ctx.runId, envFile);
      const outcomes = await sessionStart(ctx, source);
      if (opts.handlers.some((h) => h.event === 'FileChanged')) {
        // What FileChanged handlers export reaches later commands too; their watchPaths replace SessionStart's.
        const paths = { fixed: matcherPaths(opts.handlers, ctx.workspace.root), asked: outcomes.flatMap((o) => o.verdict.watchPaths ?? []) };
        const tell = async (path: string, event: FileEvent) => {
          const told = await fire(ctx, 'FileChanged', basename(path), { file_path: path, event }, { env: envFile ? { CLAUDE_ENV_FILE: envFile } : {} });
          if (envFile && ctx.toolEnv) Object.assign(ctx.toolEnv, readEnvFile(envFile));
          return told.findLast((o) => o.verdict.watchPaths)?.verdict.watchPaths;
        };
        watches.start(ctx.runId, paths, tell, (message) => ctx.emit({ event: 'error', data: { message, code: 'diagnostic' } }));
      }
    },

    async modifyRequest(ctx, req) {
      const context = sessionContext.get(ctx.runId);
      const late = background.contextOf(ctx.runId);
      if (!context && late.length === 0) return req;
      const blocks = [
        ...(context ? [`<session_start_hook_context>\n${context}\n</session_start_hook_context>`] : []),
        ...(late.length ? [`<background_hook_context>\n${late.join('\n')}\n</background_hook_context>`] : []),
      ];
      return { ...req, system: [...req.system, ...blocks] };
    },

    async onUserMessage(ctx, text): Promise<UserMessageOutcome> {
      // A subagent's task is written by the agent, not submitted by the user.
      if (ctx.depth) return { blocked: false };
      // A recipe (Claude's custom command) typed as `/name args` expanded into `text`: UserPromptExpansion first.
      const call = ctx.recipeCall;
      const expansion = call ? aggregate(await fire(ctx, 'UserPromptExpansion', call.name, expansionFields(call)), opts.settings, true) : undefined;
      const refused = expansion?.block ?? expansion?.ask;
      if (refused) return { blocked: true, reason: refused.reason, by: refused.by };
      const agg = aggregate(await fire(ctx, 'UserPromptSubmit', undefined, { prompt: text }), opts.settings, true);
      const stop = agg.block ?? agg.ask;
      if (stop) return { blocked: true, reason: stop.reason, by: stop.by };
      const context = [...(expansion?.context ?? []), ...agg.context];
      return context.length ? { blocked: false, additional_context: context.join('\n') } : { blocked: false };
    },

    async wrapToolCall(ctx, call, next) {
      const toolName = claudeToolName(ctx.tools, call.name);
      const preInput = toClaudeInput(ctx.tools, call.name, call.args, ctx.workspace.root);
      const pre = aggregate(
        await fire(ctx, 'PreToolUse', toolName, { tool_name: toolName, tool_input: preInput, tool_use_id: call.id }, { call: { tool: toolName, input: preInput } }),
        opts.settings,
        true,
      );
      if (pre.halt) {
        stopNotice(ctx, 'PreToolUse', pre.halt);
        return { ...blocked(ctx, call, pre.halt.by, pre.halt.reason), halt: pre.halt };
      }
      if (pre.block) return blocked(ctx, call, pre.block.by, pre.block.reason);
      if (pre.ask) {
        // The prompt `ask` calls for is answered by a PermissionRequest hook first, as in Claude Code.
        const decided = await ctx.requestPermission?.({ call, kind: promptKind(ctx, call), interactive: ctx.askUser !== undefined });
        if (decided?.behavior === 'deny') {
          const result = blocked(ctx, call, decided.by, decided.message || `${call.name} was not allowed`);
          return decided.interrupt ? { ...result, halt: { by: decided.by, reason: decided.message || 'stopped by hook' } } : result;
        }
        if (decided?.behavior === 'allow') allowByHook(ctx.state, call.id);
        else {
          const answer = ctx.askUser ? await ctx.askUser(call, `${pre.ask.by}: ${pre.ask.reason}`) : 'deny';
          if (answer === 'deny') return blocked(ctx, call, pre.ask.by, ctx.askUser ? `${pre.ask.reason} (the user declined)` : pre.ask.reason);
        }
      }
      // "allow" skips the prompt the approval mode would show (a call that always needs a person is still asked).
      if (pre.allow) allowByHook(ctx.state, call.id);
      let current = call;
      if (pre.updatedInput) {
        const args = fromClaudeInput(ctx.tools, call.name, pre.updatedInput.input);
        const refused = await refuseRewrittenInput(ctx, call.name, args);
        if (refused) return blocked(ctx, call, 'claude-hooks', refused);
        current = { ...call, args, raw_args: JSON.stringify(args) };
      }
      // Claude's TodoWrite: its handlers hear each task the call adds or completes, and may refuse one.
      const tasks = toolName === 'TodoWrite' ? await reviewTasks(ctx.state.todos ?? [], current.args, (event, todo) => decideTask(ctx, event, todo)) : undefined;
      if (tasks?.halt) {
        stopNotice(ctx, tasks.halt.event, tasks.halt);
        return { ...blocked(ctx, call, tasks.halt.by, tasks.halt.reason), halt: tasks.halt };
      }
      if (tasks?.todos) {
        const args = { ...current.args, todos: tasks.todos };
        current = { ...current, args, raw_args: JSON.stringify(args) };
      }
      const started = performance.now();
      let result = await next(current);
      const event = result.error ? 'PostToolUseFailure' : 'PostToolUse';
      const finished = finishedCall(ctx, current, result);
      const fields = { ...finished, duration_ms: Math.round(performance.now() - started), ...(result.error ? { is_interrupt: result.status === 'cancelled' } : {}) };
      const post = aggregate(await fire(ctx, event, toolName, fields, { call: { tool: toolName, input: finished.tool_input } }), opts.settings, false);
      // What replaces the output (a redaction) is what the model reads; `updatedMCPToolOutput` only for an MCP tool's.
      const replaced = post.updatedToolOutput ?? (toolName.startsWith('mcp__') ? post.updatedMCPToolOutput : undefined);
      if (replaced !== undefined) result = { ...result, output: replaced };
      // PostToolUse cannot undo the call; a "block" reason and extra context are fed back to the model.
      const feedback = [...(tasks?.feedback ?? []), ...(post.block ? [`[hook ${post.block.by}] ${post.block.reason}`] : []), ...pre.context, ...post.context];
      if (feedback.length) result = { ...result, output: `${result.output}\n\n<hook_feedback>\n${feedback.join('\n')}\n</hook_feedback>` };
      if (pre.updatedInput) result = markRewritten(result, pre.updatedInput.by, current.args);
      else if (tasks?.by) result = { ...result, rewritten: { by: tasks.by, args: current.args } };
      if (post.halt) {
        stopNotice(ctx, event, post.halt);
        result = { ...result, halt: post.halt };
      }
      // A skill read is a skill used: its own handlers take part from the next event on.
      if (result.status === 'ok' && skills.files.size) for (const skill of skillsReadBy(ctx.tools, current, ctx.workspace.root, skills.files)) skills.active(ctx)?.add(skill);
      return result;
    },

    async onPermissionRequest(ctx, ask): Promise<PermissionAnswer | undefined> {
      const toolName = claudeToolName(ctx.tools, ask.call.name);
      const input = toClaudeInput(ctx.tools, ask.call.name, ask.call.args, ctx.workspace.root);
      const outcomes = await fire(ctx, 'PermissionRequest', toolName, { tool_name: toolName, tool_input: input, permission_suggestions: [] }, { call: { tool: toolName, input } });
      // `continue: false` ends the run; then deny beats allow, each in config order.
      const halt = outcomes.find((o) => o.verdict.halt !== undefined);
      if (halt) {
        stopNotice(ctx, 'PermissionRequest', { by: halt.handler.name, reason: halt.verdict.halt as string });
        return { behavior: 'deny', by: halt.handler.name, message: halt.verdict.halt, interrupt: true };
      }
      const decided = outcomes.find((o) => o.verdict.permission?.behavior === 'deny') ?? outcomes.find((o) => o.verdict.permission?.behavior === 'allow');
      const permission = decided?.verdict.permission;
      if (!decided || !permission) return undefined;
      // `interrupt` ends the run: the user sees why, as for `continue: false`.
      if (permission.interrupt) stopNotice(ctx, 'PermissionRequest', { by: decided.handler.name, reason: permission.message ?? 'stopped by hook' });
      return { ...permission, by: decided.handler.name };
    },

    async onPermissionDenied(ctx, denial) {
      const toolName = claudeToolName(ctx.tools, denial.call.name);
      const input = toClaudeInput(ctx.tools, denial.call.name, denial.call.args, ctx.workspace.root);
      const outcomes = await fire(ctx, 'PermissionDenied', toolName, { tool_name: toolName, tool_input: input, tool_use_id: denial.call.id, reason: denial.reason }, { call: { tool: toolName, input } });
      // The refusal stands whatever they answer; `retry: true` tells the model it may try again.
      const retry = outcomes.find((o) => o.verdict.retry);
      return retry ? { retry_by: retry.handler.name } : undefined;
    },

    async afterToolBatch(ctx, batch) {
      // Each call of the turn as PostToolUse tells it, with the input it ran with.
      const byId = new Map(batch.results.map((r) => [r.tool_call_id, r]));
      const tool_calls = batch.calls.map((call) => {
        const r = byId.get(call.id) ?? { tool_call_id: call.id, name: call.name, output: '', error: 'no result', status: 'error' as const };
        return finishedCall(ctx, r.rewritten ? { ...call, args: r.rewritten.args } : call, r);
      });
      const agg = aggregate(await fire(ctx, 'PostToolBatch', undefined, { tool_calls }), opts.settings, false);
      // A block stops the loop before the next model call (as `continue: false` does), the user told why.
      const halt = agg.halt ?? agg.block;
      if (halt) {
        stopNotice(ctx, 'PostToolBatch', halt);
        return { halt };
      }
      return agg.context.length ? { context: agg.context } : undefined;
    },

    async onInstructionsLoaded(ctx, files) {
      // Observe only, one file at a time: the answers are not read (Claude Code's are not either).
      for (const file of files) {
        const fields = instructionsFields(file);
        await fire(ctx, 'InstructionsLoaded', fields.load_reason, fields);
      }
    },

    async onElicitation(ctx, ask) {
      return elicitationDecision(ctx, 'Elicitation', await fire(ctx, 'Elicitation', ask.server, elicitationFields(ask)));
    },

    async onElicitationResult(ctx, ask, answer) {
      return elicitationDecision(ctx, 'ElicitationResult', await fire(ctx, 'ElicitationResult', ask.server, elicitationResultFields(ask, answer)));
    },

    async onNotification(ctx, notice) {
      const message =
        notice.type === 'permission_prompt'
          ? `Agent Workbench needs your permission to use ${claudeToolName(ctx.tools, notice.call.name)}`
          : `MCP server ${notice.server} asks: ${notice.message}`;
      await fire(ctx, 'Notification', notice.type, { message, title: 'Agent Workbench', notification_type: notice.type });
    },

    async onAgentStop(ctx, msgs: Message[]): Promise<StopOutcome> {
      const inRow = stopBlocks.get(ctx.runId) ?? 0;
      const last = [...msgs].reverse().find((m) => m.role === 'assistant');
      // A subagent's end is SubagentStop (matched on its agent type), read exactly like Stop.
      const event = ctx.depth ? 'SubagentStop' : 'Stop';
      const outcomes = await fire(ctx, event, ctx.depth ? ctx.profile.name : undefined, { stop_hook_active: inRow > 0, last_assistant_message: last?.content ?? '' });
      // A block reason and extra context both keep the agent working (Stop `additionalContext` is
      // feedback without an error).
      const reasons = outcomes.flatMap((o) => [o.verdict.block, o.verdict.additionalContext]).filter((r): r is string => Boolean(r));
      // `continue: false` means "stop now", which beats any request to keep going.
      const halt = outcomes.find((o) => o.verdict.halt !== undefined);
      if (halt) stopNotice(ctx, event, { by: halt.handler.name, reason: halt.verdict.halt as string });
      if (reasons.length === 0 || halt || inRow >= STOP_BLOCK_CAP) {
        stopBlocks.delete(ctx.runId);
        return {};
      }
      // A Stop block keeps the agent working, the reason becoming the next user message.
      stopBlocks.set(ctx.runId, inRow + 1);
      return { follow_up_messages: reasons };
    },

    async onCompact(ctx, notice) {
      if (notice.phase === 'post') {
        await fire(ctx, 'PostCompact', notice.trigger, { trigger: notice.trigger, compact_summary: notice.summary ?? '' });
        // As after Claude Code's compaction, SessionStart handlers matching `compact` may bring back what the summary left out.
        if (!ctx.depth) await sessionStart(ctx, 'compact');
        return;
      }
      const agg = aggregate(await fire(ctx, 'PreCompact', notice.trigger, { trigger: notice.trigger, custom_instructions: '' }), opts.settings, true);
      const veto = agg.block ?? agg.ask;
      return veto ? { blocked: true, reason: `${veto.by}: ${veto.reason}` } : {};
    },

    async afterAgent(ctx, outcome) {
      // Background handlers finish before the run ends (a CLI run would otherwise cut them off).
      await watches.stop(ctx.runId, CLAUDE_SESSION_END_MAX_MS);
      const left = await background.settle(ctx.runId, CLAUDE_SESSION_END_MAX_MS);
      if (left) ctx.emit({ event: 'on_hook_message', name: 'claude-hooks', data: { hook: 'claude-hooks', event: 'SessionEnd', message: `${left} background hook${left === 1 ? '' : 's'} still running after ${CLAUDE_SESSION_END_MAX_MS / 1000} s: no longer waited for`, kind: 'message' } });
      background.forget(ctx.runId);
      stopBlocks.delete(ctx.runId);
      sessionContext.delete(ctx.runId);
      envFiles.delete(ctx.runId);
      const reason = outcome.stop_reason === 'cancelled' ? 'prompt_input_exit' : 'other';
      removeEnvFile(opts.home, ctx.runId);
      if (ctx.depth) return;
      // A run that a model error ended: its StopFailure handlers hear why (their answer is not read).
      const failure = stopFailure(outcome);
      if (failure) await fire(ctx, 'StopFailure', failure.error_type, failure, { atEnd: true });
      await fire(ctx, 'SessionEnd', reason, { reason, stop_reason: outcome.stop_reason }, { atEnd: true });
    },
  };
}

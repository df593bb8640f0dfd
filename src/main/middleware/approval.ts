/**
 * Approval policy for calls that write or execute (reads are always allowed), read from each call's
 * effects. In `ask` mode the run emits `on_approval_request` and waits for `approve(id, decision)`;
 * with no one to ask (the CLI without `--auto`) the call is refused with a result telling the model
 * the user did not allow it.
 */
import { randomUUID } from 'node:crypto';
import type {
  ApprovalDecision,
  ApprovalMode,
  StreamEventData,
  ToolCall,
  ToolResult,
} from '../../shared/types/index.ts';
import type { Hook, MiddlewareInfo, RunContext } from '../pipeline/hook.ts';
import type { ToolKind } from '../tools/types.ts';
import { alwaysAskReason } from '../tools/risk.ts';
import { callEffects, effectKind, previewCall } from '../tools/call-policy.ts';
import { abortError } from '../abort.ts';
import {
  commandSandbox,
  describeCommandSandbox,
  detectSandbox,
  grantNetwork,
  type CommandSandbox,
  type SandboxAvailability,
} from '../tools/sandbox/index.ts';

/** What an approval prompt shows (the `on_approval_request` payload). */
export type ApprovalRequest = StreamEventData['on_approval_request'];

interface Pending {
  resolve: (decision: ApprovalDecision) => void;
  threadId: string;
  request: ApprovalRequest;
}

/** Tool calls a hook or an allow rule allowed (Claude `permissionDecision: "allow"`), per run state. */
const hookAllowed = new WeakMap<object, Set<string>>();
/** Tool calls an ask rule wants a person to see, with why, per run state. */
const ruleAsks = new WeakMap<object, Map<string, string>>();

/**
 * Makes a person approve a call in every approval mode (a permission rule asks): the call is
 * treated like a risky one, with `reason` at the top of the prompt.
 */
export function askByRule(state: object, callId: string, reason: string): void {
  let map = ruleAsks.get(state);
  if (!map) ruleAsks.set(state, (map = new Map()));
  map.set(callId, reason);
}

/**
 * Lets a call skip the approval prompt of the run's mode because a hook or an allow rule allowed it.
 * Contract: a call that always needs a person (a risk the mode never covers) is still asked.
 */
export function allowByHook(state: object, callId: string): void {
  let set = hookAllowed.get(state);
  if (!set) hookAllowed.set(state, (set = new Set()));
  set.add(callId);
}

/** Holds the approvals waiting for a user, across runs; one per workbench. */
export class ApprovalBroker {
  private readonly pending = new Map<string, Pending>();
  /** Thread id → tool names allowed for the rest of the thread. */
  private readonly allowedForThread = new Map<string, Set<string>>();
  /** Tool call ids the user already allowed (through a hook's confirmation request). */
  private readonly preApproved = new Set<string>();

  preApprove(callId: string): void {
    this.preApproved.add(callId);
  }

  /** True once for a call the user already allowed. */
  consumePreApproval(callId: string): boolean {
    return this.preApproved.delete(callId);
  }

  request(
    threadId: string,
    signal: AbortSignal,
    details: Omit<ApprovalRequest, 'approval_id'>,
  ): { id: string; decision: Promise<ApprovalDecision> } {
    const id = `ap_${randomUUID()}`;
    const decision = new Promise<ApprovalDecision>((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        reject(signal.reason instanceof Error ? signal.reason : abortError());
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        threadId,
        request: { approval_id: id, ...details },
        resolve: (d) => {
          signal.removeEventListener('abort', onAbort);
          this.pending.delete(id);
          resolve(d);
        },
      });
    });
    return { id, decision };
  }

  /** Resolves a pending approval; false when the id is unknown (already answered or cancelled). */
  answer(id: string, decision: ApprovalDecision): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    p.resolve(decision);
    return true;
  }

  isAllowedForThread(threadId: string, tool: string): boolean {
    return this.allowedForThread.get(threadId)?.has(tool) ?? false;
  }

  allowForThread(threadId: string, tool: string): void {
    let set = this.allowedForThread.get(threadId);
    if (!set) this.allowedForThread.set(threadId, (set = new Set()));
    set.add(tool);
  }

  /** The prompts still waiting on a thread, oldest first (a reloaded page shows them again). */
  pendingFor(threadId: string): ApprovalRequest[] {
    return [...this.pending.values()].filter((p) => p.threadId === threadId).map((p) => p.request);
  }
}

/**
 * Whether a call of a tool of this kind needs the user's approval under `mode`.
 * Contract: under `auto-edit` a command asks only when it will not run sandboxed.
 */
export function needsApproval(mode: ApprovalMode, kind: ToolKind, sandboxed = false): boolean {
  if (kind === 'read') return false;
  if (mode === 'auto') return false;
  if (mode === 'auto-edit') return kind === 'execute' && !sandboxed;
  return true;
}

/** Shows an approval prompt and waits for the user's decision (rejects with AbortError on cancel). */
export async function askUser(
  ctx: RunContext,
  broker: ApprovalBroker,
  call: ToolCall,
  kind: 'write' | 'execute',
  preview: string,
): Promise<ApprovalDecision> {
  // A subagent's prompt names it, so the user knows which agent wants to act (docs/agents.md).
  const agent = ctx.depth ? { agent: ctx.profile.name } : {};
  // The desk's diff of a write there goes through the same guard as the write will.
  const dirs = ctx.workspace.extraRoots.length
    ? { working_dirs: [...ctx.workspace.extraRoots] }
    : {};
  const { id, decision } = broker.request(ctx.threadId, ctx.signal, {
    tool_call: call,
    kind,
    preview,
    ...agent,
    ...dirs,
  });
  ctx.emit({
    event: 'on_approval_request',
    name: call.name,
    data: { approval_id: id, tool_call: call, kind, preview, ...agent, ...dirs },
  });
  // Notification hooks (a desktop notice, a chat message) run while the prompt waits, not before it.
  void ctx.notify?.({ type: 'permission_prompt', call });
  const asked = performance.now();
  const d = await decision;
  ctx.emit({ event: 'on_approval_resolved', data: { approval_id: id, decision: d } });
  // The wait is the person's time, not the tool's: the timeline's time-accounting strip shows it apart.
  ctx.trace?.currentSpan()?.setAll({
    'workbench.permission.decision': d,
    'workbench.permission.decided_by': 'user',
    'workbench.permission.wait_ms': Math.round(performance.now() - asked),
  });
  return d;
}

/** How an approval prompt names a call: one that runs something, or one that writes. */
export function promptKind(ctx: RunContext, call: ToolCall): 'write' | 'execute' {
  const tool = ctx.tools.get(call.name);
  const effects = tool && callEffects(tool, call.args);
  return effects && effectKind(effects) === 'execute' ? 'execute' : 'write';
}

/**
 * `RunContext.askUser` for hooks that want a call confirmed: denies at once when nobody can answer;
 * an allowed call is remembered so the approval ring does not ask a second time.
 */
export function createHookConfirmation(broker: ApprovalBroker, interactive: boolean) {
  return async (ctx: RunContext, call: ToolCall, reason: string): Promise<'allow' | 'deny'> => {
    if (!interactive) return 'deny';
    const d = await askUser(
      ctx,
      broker,
      call,
      promptKind(ctx, call),
      `${reason}\n\n${previewCall(ctx.tools.get(call.name), call.name, call.args)}`,
    );
    if (d === 'deny') return 'deny';
    if (d === 'allow_thread') broker.allowForThread(ctx.threadId, call.name);
    if (d === 'allow_network') grantNetwork(ctx.state, call.id);
    broker.preApprove(call.id);
    return 'allow';
  };
}

export interface ApprovalHookOptions {
  mode: ApprovalMode;
  broker: ApprovalBroker;
  /** False when nobody can answer (CLI): calls needing approval are refused at once. */
  interactive: boolean;
  /**
   * The settings file whose `permissions.denyInsteadOfPrompting` refuses what would ask (with
   * `interactive` false): the refusal names it.
   */
  denyInsteadOfPromptingBy?: string;
  /** Whether this machine can sandbox commands (default: the cached probe). */
  detectSandbox?: () => Promise<SandboxAvailability>;
}

/** A call not allowed: denied by the user, refused because nobody could approve it, or by a permission rule. */
export const denied = (call: ToolCall, error: string): ToolResult => ({
  tool_call_id: call.id,
  name: call.name,
  output: '',
  error,
  status: 'denied',
});

/**
 * A call the policy refused by itself, after the permission_denied hooks heard of it: the refusal
 * stands; a hook may add that the model may retry (Claude PermissionDenied `retry`).
 */
async function toldOfDenial(ctx: RunContext, call: ToolCall, reason: string): Promise<ToolResult> {
  const told = await ctx.permissionDenied?.({ call, reason });
  return denied(
    call,
    told?.retry_by ? `${reason}; hook ${told.retry_by} says you may retry it` : reason,
  );
}

/**
 * What a permission_request hook decided for a call about to wait for a person: a deny as the
 * call's result (ending the run on `interrupt`), an allow as true; undefined when no hook decided.
 * Contract: an allow is taken only when `allowable` (a call that always needs a person is still asked).
 */
async function hookDecision(
  ctx: RunContext,
  call: ToolCall,
  kind: 'write' | 'execute',
  interactive: boolean,
  allowable: boolean,
): Promise<ToolResult | true | undefined> {
  const answer = await ctx.requestPermission?.({ call, kind, interactive });
  if (!answer) return undefined;
  ctx.trace?.currentSpan()?.setAll({
    'workbench.permission.decision': answer.behavior,
    'workbench.permission.decided_by': answer.by,
  });
  if (answer.behavior === 'allow') return allowable ? true : undefined;
  const reason = answer.message || `${call.name} was not allowed`;
  const result = denied(call, `denied by hook ${answer.by}: ${reason}`);
  return answer.interrupt ? { ...result, halt: { by: answer.by, reason } } : result;
}

/**
 * The approval policy as a wrap_tool_call ring.
 * Contract: decides from the call's effects (what it writes or runs), never from the tool's name; a call
 * with invalid arguments passes through to dispatch, which refuses it without running anything.
 */
export function createApprovalHook(opts: ApprovalHookOptions): Hook {
  return {
    name: 'approval',
    source: 'builtin',
    async wrapToolCall(ctx: RunContext, call, next) {
      const tool = ctx.tools.get(call.name);
      const effects = tool && callEffects(tool, call.args);
      if (!tool || !effects) return next(call);
      const allowedByHook = hookAllowed.get(ctx.state)?.delete(call.id) ?? false;
      const askedByRule = ruleAsks.get(ctx.state)?.get(call.id);
      ruleAsks.get(ctx.state)?.delete(call.id);
      const kind = effectKind(effects);
      const askKind = kind === 'execute' ? 'execute' : 'write';
      let sandbox: CommandSandbox | undefined;
      // Only where it changes the decision: auto-edit lets sandboxed commands run, required refuses,
      // under auto the command policy is lighter for a command the sandbox confines, and the prompt
      // of a command `excludedCommands` take out of the sandbox says so.
      if (
        kind === 'execute' &&
        (opts.mode !== 'ask' ||
          ctx.settings.sandbox.mode === 'required' ||
          ctx.settings.sandbox.excluded_commands?.length)
      ) {
        sandbox = commandSandbox(
          ctx.settings.sandbox,
          await (opts.detectSandbox ?? detectSandbox)(),
          effects.executes,
        );
        ctx.trace?.currentSpan()?.setAll({
          'workbench.sandbox': describeCommandSandbox(sandbox),
          'workbench.sandbox.kind': sandbox.kind,
        });
        // The tool refuses it without running anything: nothing to ask about.
        if (sandbox.kind === 'refused') return next(call);
      }
      const preview =
        previewCall(tool, call.name, call.args) +
        (sandbox?.kind === 'unsandboxed' && sandbox.excluded
          ? `\n\nRuns outside the sandbox: ${sandbox.reason}`
          : '');
      const risk =
        askedByRule ??
        alwaysAskReason(tool, call.args, ctx.workspace.root, {
          sandboxed: sandbox?.kind === 'sandboxed',
          network: sandbox?.kind === 'sandboxed' && sandbox.network,
          extraRoots: ctx.workspace.extraRoots,
          // A read needs no programs: they are worked out (their commands parsed) on first need.
          ...(kind !== 'read' ? { programs: ctx.workspace.programs() } : {}),
          readsKeptBy: ctx.settings.sandbox.reads_kept_by,
        });
      if (risk) {
        // Never covered by a mode or by "allow for this thread": a person sees this exact call.
        if (opts.broker.consumePreApproval(call.id)) return next(call);
        // A hook may refuse it in the person's place, never allow it.
        const decided = await hookDecision(ctx, call, askKind, opts.interactive, false);
        if (decided && decided !== true) return decided;
        if (!opts.interactive) {
          const refused = `not run: ${risk}, so it always needs a person's approval, and ${nobodyAsked(opts)}`;
          // The policy's own refusal (not a rule's): the permission_denied hooks hear of it.
          return askedByRule ? denied(call, refused) : toldOfDenial(ctx, call, refused);
        }
        const d = await askUser(ctx, opts.broker, call, askKind, `⚠ ${risk}\n\n${preview}`);
        if (d === 'deny') return denied(call, `the user denied ${call.name}`);
        if (d === 'allow_network') grantNetwork(ctx.state, call.id);
        return next(call);
      }
      if (!needsApproval(opts.mode, kind, sandbox?.kind === 'sandboxed')) return next(call);
      if (
        allowedByHook ||
        opts.broker.isAllowedForThread(ctx.threadId, call.name) ||
        opts.broker.consumePreApproval(call.id)
      )
        return next(call);
      const decided = await hookDecision(ctx, call, askKind, opts.interactive, true);
      if (decided === true) return next(call);
      if (decided) return decided;
      if (!opts.interactive) {
        if (opts.denyInsteadOfPromptingBy)
          return denied(
            call,
            `not run: ${call.name} needs a person's approval here, and ${nobodyAsked(opts)}`,
          );
        return denied(
          call,
          `the user did not allow ${call.name}: this run may not ${kind === 'execute' ? 'run commands' : 'change files'} (start it with --auto to allow)`,
        );
      }
      const d = await askUser(ctx, opts.broker, call, askKind, preview);
      if (d === 'deny') return denied(call, `the user denied ${call.name}`);
      if (d === 'allow_thread') opts.broker.allowForThread(ctx.threadId, call.name);
      if (d === 'allow_network') grantNetwork(ctx.state, call.id);
      return next(call);
    },
  };
}

/** Why nobody was asked about a call that needed a person. */
function nobodyAsked(opts: ApprovalHookOptions): string {
  return opts.denyInsteadOfPromptingBy
    ? `permissions.denyInsteadOfPrompting in ${opts.denyInsteadOfPromptingBy} refuses what would ask`
    : 'nobody can approve it here';
}

/** The approval middleware as the hooks panel lists it. */
export const approvalInfo: MiddlewareInfo = {
  name: 'approval',
  description: 'Asks before tools that write or execute',
  phases: ['wrap_tool_call'],
};

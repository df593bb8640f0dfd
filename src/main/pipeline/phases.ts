/**
 * The phase table: for every point of the pipeline, which Hook method takes part, how hooks are
 * combined, in which order, what a failing hook does and what an abort does. The runner
 * (run-phase.ts, compose.ts) reads this table; docs/architecture.md describes it.
 */
import type { Hook } from './hook.ts';

export type PhaseName =
  | 'user_message_send'
  | 'before_agent'
  | 'modify_request'
  | 'wrap_model_call'
  | 'after_turn'
  | 'agent_stop'
  | 'wrap_tool_call'
  | 'permission_request'
  | 'permission_denied'
  | 'notification'
  | 'elicitation'
  | 'elicitation_result'
  | 'after_tool_batch'
  | 'instructions_loaded'
  | 'compact'
  | 'compact_thread'
  | 'after_agent';

/** The Hook methods that are phases (everything but its identity fields). */
export type HookMethod = Exclude<keyof Hook, 'name' | 'source' | 'description' | 'failMode'>;

/** sequential: each hook in turn, results merged; transform: each gets the previous one's output; onion: wraps the next. */
export type PhaseShape = 'sequential' | 'transform' | 'onion';

export interface PhaseSpec {
  readonly name: PhaseName;
  readonly method: HookMethod;
  readonly when: string;
  readonly shape: PhaseShape;
  /** Pipeline order; for an onion the first hook is the outermost ring. */
  readonly order: 'pipeline';
  /**
   * isolate: a failing hook is skipped and reported (trace `hook_error` + `on_hook_end` ok:false).
   * deny-fast: the same, and the first hook that blocks wins; later hooks do not run.
   */
  readonly failure: 'isolate' | 'deny-fast';
  /** Whether a failure of a hook with fail mode 'closed' blocks (phases that can block). */
  readonly failClosedBlocks: boolean;
  /** propagate: an abort ends the phase and the run; runs-after-cancel: runs and reports even then. */
  readonly abort: 'propagate' | 'runs-after-cancel';
}

/** Every phase in the order a run meets them. */
export const PHASES: readonly PhaseSpec[] = [
  {
    name: 'user_message_send',
    method: 'onUserMessage',
    when: 'once, before the message is stored; a block starts no run',
    shape: 'sequential',
    order: 'pipeline',
    failure: 'deny-fast',
    failClosedBlocks: true,
    abort: 'propagate',
  },
  {
    name: 'before_agent',
    method: 'beforeAgent',
    when: 'once, before the first model call (tools are registered here)',
    shape: 'sequential',
    order: 'pipeline',
    failure: 'isolate',
    failClosedBlocks: false,
    abort: 'propagate',
  },
  {
    name: 'modify_request',
    method: 'modifyRequest',
    when: 'every round: transforms the ModelRequest { system, messages, tools, params }',
    shape: 'transform',
    order: 'pipeline',
    failure: 'isolate',
    failClosedBlocks: false,
    abort: 'propagate',
  },
  {
    name: 'wrap_model_call',
    method: 'wrapModelCall',
    when: 'every round: around the model call; the chain is validated at the centre',
    shape: 'onion',
    order: 'pipeline',
    failure: 'isolate',
    failClosedBlocks: false,
    abort: 'propagate',
  },
  {
    name: 'after_turn',
    method: 'afterTurn',
    when: 'after each model answer; `mutate` applies once the turn’s tools ran',
    shape: 'sequential',
    order: 'pipeline',
    failure: 'isolate',
    failClosedBlocks: false,
    abort: 'propagate',
  },
  {
    name: 'agent_stop',
    method: 'onAgentStop',
    when: 'when the model answers without tool calls; follow-ups continue the loop',
    shape: 'sequential',
    order: 'pipeline',
    failure: 'isolate',
    failClosedBlocks: false,
    abort: 'propagate',
  },
  {
    name: 'wrap_tool_call',
    method: 'wrapToolCall',
    when: 'around each tool call (calls of one turn run in parallel)',
    shape: 'onion',
    order: 'pipeline',
    failure: 'isolate',
    failClosedBlocks: true,
    abort: 'propagate',
  },
  {
    name: 'permission_request',
    method: 'onPermissionRequest',
    when: 'a call is about to wait for a person’s approval (or be refused: nobody can give it); the first hook that decides answers instead',
    shape: 'sequential',
    order: 'pipeline',
    failure: 'deny-fast',
    failClosedBlocks: false,
    abort: 'propagate',
  },
  {
    name: 'permission_denied',
    method: 'onPermissionDenied',
    when: 'the approval policy refused a call by itself (it always needs a person, and nobody can approve it here); observe; a hook may tell the model it may retry',
    shape: 'sequential',
    order: 'pipeline',
    failure: 'isolate',
    failClosedBlocks: false,
    abort: 'propagate',
  },
  {
    name: 'notification',
    method: 'onNotification',
    when: 'the agent waits on the user (an approval prompt is shown); the prompt does not wait for it',
    shape: 'sequential',
    order: 'pipeline',
    failure: 'isolate',
    failClosedBlocks: false,
    abort: 'propagate',
  },
  {
    name: 'elicitation',
    method: 'onElicitation',
    when: 'an MCP server asks the user for input during a tool call; the first hook that answers answers instead of the person',
    shape: 'sequential',
    order: 'pipeline',
    failure: 'deny-fast',
    failClosedBlocks: false,
    abort: 'propagate',
  },
  {
    name: 'elicitation_result',
    method: 'onElicitationResult',
    when: 'the answer to an elicitation, before the server gets it; each hook may change the answer the ones before left',
    shape: 'transform',
    order: 'pipeline',
    failure: 'isolate',
    failClosedBlocks: false,
    abort: 'propagate',
  },
  {
    name: 'after_tool_batch',
    method: 'afterToolBatch',
    when: 'once a turn’s tool calls have all resolved, before the next model call; the first halt ends the run',
    shape: 'sequential',
    order: 'pipeline',
    failure: 'deny-fast',
    failClosedBlocks: false,
    abort: 'propagate',
  },
  {
    name: 'instructions_loaded',
    method: 'onInstructionsLoaded',
    when: 'memory files joined the run’s requests: at its start, or a subfolder’s once the agent touched it; observe only',
    shape: 'sequential',
    order: 'pipeline',
    failure: 'isolate',
    failClosedBlocks: false,
    abort: 'propagate',
  },
  {
    name: 'compact',
    method: 'onCompact',
    when: 'before (may veto) and after a compaction',
    shape: 'sequential',
    order: 'pipeline',
    failure: 'deny-fast',
    failClosedBlocks: true,
    abort: 'propagate',
  },
  {
    name: 'compact_thread',
    method: 'compactThread',
    when: 'on `callback: "compact"` from after_turn or agent_stop',
    shape: 'sequential',
    order: 'pipeline',
    failure: 'isolate',
    failClosedBlocks: false,
    abort: 'propagate',
  },
  {
    name: 'after_agent',
    method: 'afterAgent',
    when: 'once, when the run ends, whatever the outcome',
    shape: 'sequential',
    order: 'pipeline',
    failure: 'isolate',
    failClosedBlocks: false,
    abort: 'runs-after-cancel',
  },
];

/** The table row of one phase. */
export function phase(name: PhaseName): PhaseSpec {
  const spec = PHASES.find((p) => p.name === name);
  if (!spec) throw new Error(`unknown phase ${name}`);
  return spec;
}

/** The phases a hook takes part in, derived from the methods it implements, in table order. */
export function phasesOf(hook: Hook): PhaseName[] {
  return PHASES.filter((p) => typeof hook[p.method] === 'function').map((p) => p.name);
}

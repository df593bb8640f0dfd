/**
 * Every event an executable hook (Kodelet's protocol, docs/hooks.md) may answer `<hook> hook` with:
 * a sample payload for trying a hook by hand, and how an answer to the event is read. Adding an
 * event is a row here plus the place in executable-hooks.ts that fires it.
 */
import { readAfterToolResult, readBlockResult, readLoopResult } from './executable-protocol.ts';

interface ExecutableEventSpec {
  /** The event's own payload fields, with sample values. */
  sample(): Record<string, unknown>;
  /** The decision an answer means (stored and shown by `workbench hooks test`). Throws on a bad shape. */
  decision(answer: Record<string, unknown>): string;
}

const SAMPLE_USAGE = { input_tokens: 1000, output_tokens: 100, current_context_window: 1100, max_context_window: 128000 };
const SAMPLE_MESSAGES = [
  { role: 'user', content: 'hello' },
  { role: 'assistant', content: 'hi' },
];

function loopDecision(r: { follow_up_messages?: string[]; mutate?: unknown; callback?: string }): string {
  if (r.mutate) return 'mutate';
  if (r.callback) return 'callback';
  return r.follow_up_messages?.length ? 'follow_up' : 'none';
}

const SPECS = {
  before_tool_call: {
    sample: () => ({ tool_name: 'bash', tool_input: { command: 'ls' }, tool_user_id: 'call_test' }),
    decision: (o) => {
      const r = readBlockResult(o);
      return r.blocked ? 'block' : r.input ? 'rewrite' : 'allow';
    },
  },
  after_tool_call: {
    sample: () => ({
      tool_name: 'bash',
      tool_input: { command: 'ls' },
      tool_output: { toolName: 'bash', success: true, metadata: { command: 'ls', exitCode: 0, output: 'README.md' }, timestamp: new Date().toISOString() },
      tool_user_id: 'call_test',
      blocked: false,
    }),
    decision: (o) => (readAfterToolResult(o).output ? 'rewrite' : 'none'),
  },
  user_message_send: {
    sample: () => ({ message: 'hello' }),
    decision: (o) => (readBlockResult(o).blocked ? 'block' : 'allow'),
  },
  after_turn: {
    sample: () => ({ turn_number: 1, tools_used: false, usage: SAMPLE_USAGE, auto_compact_enabled: true, auto_compact_threshold: 0.85 }),
    decision: (o) => loopDecision(readLoopResult(o, false)),
  },
  // Kodelet's turn_end: after each assistant response; its answer is not read (Kodelet reserves it).
  turn_end: {
    sample: () => ({ response: 'done', turn_number: 1 }),
    decision: () => 'none',
  },
  agent_stop: {
    sample: () => ({ messages: SAMPLE_MESSAGES, usage: SAMPLE_USAGE, invoked_recipe: '', auto_compact_enabled: true, auto_compact_threshold: 0.85 }),
    decision: (o) => loopDecision(readLoopResult(o, true)),
  },
} satisfies Record<string, ExecutableEventSpec>;

export type ExecutableEvent = keyof typeof SPECS;
export const EXECUTABLE_EVENTS = Object.keys(SPECS) as ExecutableEvent[];

export function isExecutableEvent(name: string): name is ExecutableEvent {
  return Object.hasOwn(SPECS, name);
}

/** The fields every executable-hook payload starts with. */
export const basePayload = (event: ExecutableEvent, convId: string, cwd: string) => ({ event, conv_id: convId, cwd, invoked_by: 'main' });

/** A sample payload for trying a hook under `event` (`workbench hooks test`, the hooks panel). */
export function sampleExecutablePayload(event: ExecutableEvent, convId: string, cwd: string): Record<string, unknown> {
  return { ...basePayload(event, convId, cwd), ...SPECS[event].sample() };
}

/** The decision an answer to `event` means. Contract: throws on an answer of the wrong shape. */
export function executableDecision(event: ExecutableEvent, answer: Record<string, unknown>): string {
  return SPECS[event].decision(answer);
}

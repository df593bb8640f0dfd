/**
 * The wire format of executable hooks (docs/hooks.md): payload pieces and strict readers of the
 * answers. A reader returns the parsed result or throws a message for the record.
 */
import type { Message, ToolResult } from '../../shared/types/index.ts';
import { isRecord } from './json-output.ts';

/** A tool result as executable hooks see it; the tool's text is carried in `metadata.output`. */
export interface StructuredToolResult {
  toolName: string;
  success: boolean;
  error?: string;
  metadata?: Record<string, unknown>;
  timestamp: string;
}

export interface UsageInfo {
  input_tokens: number;
  output_tokens: number;
  current_context_window: number;
  max_context_window: number;
}

/**
 * Our ToolResult as a StructuredToolResult under `toolName` (Kodelet's name of the tool). Contract:
 * `metadata.output` always carries the text the model sees, besides the tool's own `metadata` fields.
 */
export function toStructured(r: ToolResult, toolName: string = r.name, metadata: Record<string, unknown> = {}): StructuredToolResult {
  return {
    toolName,
    success: !r.error,
    ...(r.error ? { error: r.error } : {}),
    metadata: { ...metadata, output: r.output },
    timestamp: new Date().toISOString(),
  };
}

/** A hook's StructuredToolResult back to our ToolResult (text from `metadata.output`, else `output`). */
export function fromStructured(call: { id: string; name: string }, s: Record<string, unknown>, previous: ToolResult): ToolResult {
  const meta = isRecord(s.metadata) ? s.metadata : {};
  const text = typeof meta.output === 'string' ? meta.output : typeof s.output === 'string' ? s.output : previous.output;
  const failed = s.success === false;
  const error = failed ? (typeof s.error === 'string' && s.error ? s.error : 'failed (by hook)') : undefined;
  // A hook may turn a success into a failure or clear a failure; a timeout or a deny keeps its status.
  const status = failed ? (previous.status === 'ok' ? 'error' : previous.status) : previous.error ? 'ok' : previous.status;
  return { tool_call_id: call.id, name: call.name, output: text, status, ...(error ? { error } : {}) };
}

/** The conversation as executable hooks see it: user and assistant turns only, as plain text. */
export function toExecutableMessages(msgs: readonly Message[]): Array<{ role: 'user' | 'assistant'; content: string }> {
  return msgs.filter((m) => m.role === 'user' || m.role === 'assistant').map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content }));
}

function fail(message: string): never {
  throw new Error(`invalid result: ${message}`);
}

function optString(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') fail(`"${key}" must be a string`);
  return v;
}

export function readBlockResult(o: Record<string, unknown>): { blocked: boolean; reason?: string; input?: Record<string, unknown> } {
  const blocked = o.blocked ?? false;
  if (typeof blocked !== 'boolean') fail('"blocked" must be a boolean');
  const reason = optString(o, 'reason');
  const input = o.input ?? undefined;
  if (input !== undefined && !isRecord(input)) fail('"input" must be an object or null');
  return { blocked, reason, input: input as Record<string, unknown> | undefined };
}

export function readAfterToolResult(o: Record<string, unknown>): { output?: Record<string, unknown> } {
  const output = o.output ?? undefined;
  if (output !== undefined && !isRecord(output)) fail('"output" must be a StructuredToolResult object or null');
  return { output: output as Record<string, unknown> | undefined };
}

function readMessages(v: unknown): Message[] {
  if (!Array.isArray(v)) fail('"messages" must be an array');
  return v.map((m, i) => {
    if (!isRecord(m) || typeof m.content !== 'string' || !['user', 'assistant', 'system'].includes(String(m.role))) {
      fail(`messages[${i}] must be {role: "user"|"assistant", content: string}`);
    }
    return { role: m.role as Message['role'], content: m.content as string };
  });
}

export interface LoopResult {
  follow_up_messages?: string[];
  mutate?: Message[];
  callback?: 'compact';
  /** `callback: NAME` naming a recipe (agent_stop only): its prompt becomes a follow-up (docs/recipes.md). */
  recipe?: { name: string; args: Record<string, string> };
}

/** after_turn and agent_stop results (`result`: "" | continue | mutate | callback). */
export function readLoopResult(o: Record<string, unknown>, allowFollowUps: boolean): LoopResult {
  const result = optString(o, 'result') ?? '';
  if (!['', 'continue', 'mutate', 'callback'].includes(result)) fail(`unknown "result" ${JSON.stringify(result)}`);
  const out: LoopResult = {};
  if (result === 'mutate') out.mutate = readMessages(o.messages);
  if (result === 'callback') {
    const cb = optString(o, 'callback');
    if (o.callback_args !== undefined && o.callback_args !== null && !isRecord(o.callback_args)) fail('"callback_args" must be an object');
    if (!cb) fail('"callback" needs a name: "compact" or a recipe');
    if (cb === 'compact') out.callback = 'compact';
    else {
      // Any other name is a recipe (Kodelet's callbacks), run as a follow-up, so only where follow-ups are.
      if (!allowFollowUps) fail(`callback ${JSON.stringify(cb)}: recipes run from agent_stop only`);
      const args: Record<string, string> = {};
      for (const [k, v] of Object.entries(isRecord(o.callback_args) ? o.callback_args : {})) args[k] = typeof v === 'string' ? v : JSON.stringify(v);
      out.recipe = { name: cb!, args };
    }
  }
  if (allowFollowUps && o.follow_up_messages !== undefined && o.follow_up_messages !== null) {
    const f = o.follow_up_messages;
    if (!Array.isArray(f) || f.some((m) => typeof m !== 'string')) fail('"follow_up_messages" must be an array of strings');
    if (f.length) out.follow_up_messages = (f as string[]).filter((m) => m.trim() !== '');
  }
  return out;
}

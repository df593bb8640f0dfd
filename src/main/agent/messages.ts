/**
 * The message chain as plain `Message` objects: validation and pretty printing. Token estimates
 * live in tokens.ts.
 */
import type { Message, Role } from '../../shared/types/index.ts';
import { sharedPrefixLength } from './prefix-sum.ts';

const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];

/** True for one of the four roles: system, user, assistant, tool. */
function validRole(role: string): role is Role {
  return (ROLES as readonly string[]).includes(role);
}

/** True for roles allowed in user-submitted input: only user and system. */
function userInputRole(role: string): boolean {
  return role === 'user' || role === 'system';
}

export class MessageValidationError extends Error {
  readonly index: number;
  constructor(index: number, message: string) {
    super(`message ${index}: ${message}`);
    this.name = 'MessageValidationError';
    this.index = index;
  }
}

export interface ValidateOptions {
  /** The last assistant message may still wait for its tool results (a turn in progress). */
  openLastTurn?: boolean;
}

/** The last chain that passed `validate` (by its first message) and its calls still open at its end. */
interface ValidChain {
  refs: Message[];
  open: Map<string, number>;
}

const validChains = new WeakMap<Message, ValidChain>();

/**
 * Checks a whole chain: the four roles; user and system messages have content; an assistant message
 * has content or tool calls; every tool message answers a call of the assistant message just before
 * it (only tool messages in between), once; every call is answered before the conversation moves on.
 * A chain that starts with one that passed before (same message objects, which never change once
 * made) is checked from where that one ended, so a round checks only its new messages.
 * Contract: throws MessageValidationError naming the first bad message; returns otherwise.
 */
export function validate(msgs: readonly Message[], opts: ValidateOptions = {}): void {
  const known = msgs.length > 0 ? validChains.get(msgs[0]) : undefined;
  const from =
    known && sharedPrefixLength(msgs, known.refs) === known.refs.length ? known.refs.length : 0;
  // calls of the current assistant turn → its index
  let open = from > 0 ? new Map(known!.open) : new Map<string, number>();
  const unanswered = (i: number) => {
    const [id, at] = [...open.entries()][0] ?? [];
    if (id !== undefined)
      throw new MessageValidationError(at!, `tool call ${id} has no result before message ${i}`);
  };
  for (let i = from; i < msgs.length; i++) {
    const m = msgs[i];
    if (!validRole(m.role)) throw new MessageValidationError(i, `unknown role "${String(m.role)}"`);
    if (typeof m.content !== 'string')
      throw new MessageValidationError(i, 'content must be a string');
    switch (m.role) {
      case 'tool':
        if (!m.tool_call_id || !m.name)
          throw new MessageValidationError(i, 'tool message needs tool_call_id and name');
        if (!open.has(m.tool_call_id))
          throw new MessageValidationError(
            i,
            `tool message answers no open call of the assistant message before it (tool_call_id ${m.tool_call_id})`,
          );
        open.delete(m.tool_call_id);
        break;
      case 'assistant':
        unanswered(i);
        if (!m.content && !m.tool_calls?.length)
          throw new MessageValidationError(i, 'assistant message needs content or tool_calls');
        open = new Map();
        for (const tc of m.tool_calls ?? []) {
          if (!tc.id || !tc.name)
            throw new MessageValidationError(i, 'tool call needs id and name');
          open.set(tc.id, i);
        }
        break;
      default:
        unanswered(i);
        if (!m.content.trim())
          throw new MessageValidationError(i, `${m.role} message needs content`);
    }
  }
  if (msgs.length > from) remember(msgs, from, known, open);
  if (!opts.openLastTurn) unanswered(msgs.length);
}

/** Records that `msgs` passed (up to the final unanswered check), extending the known chain in place. */
function remember(
  msgs: readonly Message[],
  from: number,
  known: ValidChain | undefined,
  open: Map<string, number>,
): void {
  if (known && from > 0) {
    for (let i = from; i < msgs.length; i++) known.refs.push(msgs[i]);
    known.open = new Map(open);
  } else validChains.set(msgs[0], { refs: msgs.slice(), open: new Map(open) });
}

/** Stricter check for externally submitted messages: only user/system roles, non-empty. */
export function validateUserInput(msgs: readonly Message[]): void {
  if (msgs.length === 0) throw new MessageValidationError(0, 'no messages');
  msgs.forEach((m, i) => {
    if (!userInputRole(m.role))
      throw new MessageValidationError(i, `role "${String(m.role)}" is not allowed in user input`);
    if (typeof m.content !== 'string' || !m.content.trim())
      throw new MessageValidationError(i, 'content must be non-empty');
  });
}

const LABEL: Record<Role, string> = {
  system: 'System',
  user: 'Human',
  assistant: 'AI',
  tool: 'Tool',
};

/** Human-readable dump for `workbench threads show`: `[Role]` headers, content, tool calls. */
export function prettyPrint(msgs: readonly Message[]): string {
  return msgs
    .map((m) => {
      const head =
        m.role === 'tool' ? `[Tool: ${m.name} (call_id=${m.tool_call_id})]` : `[${LABEL[m.role]}]`;
      const calls = (m.tool_calls ?? []).map(
        (tc) => `  → tool_call: ${tc.name}(id=${tc.id}, args=${JSON.stringify(tc.args)})`,
      );
      return [head, ...(m.content ? [m.content] : []), ...calls].join('\n') + '\n';
    })
    .join('\n');
}

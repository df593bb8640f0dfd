/**
 * The Messages chain of seed 000 §1.5–§1.6: builders, role filters, accessors, validation, token
 * estimate and pretty printing over plain `Message` objects.
 */
import type { Message, Role, ToolCall } from '../../shared/types/index.ts';

export const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];

/** True for one of the four roles (seed 000 §1.5). */
export function validRole(role: string): role is Role {
  return (ROLES as readonly string[]).includes(role);
}

/** True for roles allowed in user-submitted input: only user and system. */
export function userInputRole(role: string): boolean {
  return role === 'user' || role === 'system';
}

export const system = (content: string): Message => ({ role: 'system', content });
export const human = (content: string): Message => ({ role: 'user', content });
export const ai = (content: string, ...toolCalls: ToolCall[]): Message =>
  toolCalls.length ? { role: 'assistant', content, tool_calls: toolCalls } : { role: 'assistant', content };
export const toolMsg = (toolCallId: string, name: string, content: string): Message => ({
  role: 'tool',
  content,
  tool_call_id: toolCallId,
  name,
});

export class MessageValidationError extends Error {
  readonly index: number;
  constructor(index: number, message: string) {
    super(`message ${index}: ${message}`);
    this.name = 'MessageValidationError';
    this.index = index;
  }
}

/** Immutable chain with the seed's fluent API; every builder returns a new chain. */
export class Messages {
  private readonly items: readonly Message[];

  constructor(items: readonly Message[] = []) {
    this.items = items;
  }

  system(content: string): Messages {
    return this.append(system(content));
  }
  human(content: string): Messages {
    return this.append(human(content));
  }
  ai(content: string, ...toolCalls: ToolCall[]): Messages {
    return this.append(ai(content, ...toolCalls));
  }
  tool(toolCallId: string, name: string, content: string): Messages {
    return this.append(toolMsg(toolCallId, name, content));
  }
  append(...msgs: Message[]): Messages {
    return new Messages([...this.items, ...msgs]);
  }

  byRole(role: string): Message[] {
    return this.items.filter((m) => m.role === role);
  }
  userMessages(): Message[] {
    return this.byRole('user');
  }
  assistantMessages(): Message[] {
    return this.byRole('assistant');
  }
  toolMessages(): Message[] {
    return this.byRole('tool');
  }
  systemMessages(): Message[] {
    return this.byRole('system');
  }

  /** The last message, or an empty user-less message when the chain is empty (seed: zero value). */
  last(): Message {
    return this.items.at(-1) ?? { role: 'user', content: '' };
  }
  lastContent(): string {
    return this.items.at(-1)?.content ?? '';
  }
  len(): number {
    return this.items.length;
  }
  slice(): Message[] {
    return [...this.items];
  }

  validate(): void {
    validate(this.items);
  }
  validateUserInput(): void {
    validateUserInput(this.items);
  }
  estimateTokens(): number {
    return estimateTokens(this.items);
  }
  prettyPrint(): string {
    return prettyPrint(this.items);
  }
}

export const newMessages = (items: readonly Message[] = []): Messages => new Messages(items);

export interface ValidateOptions {
  /** The last assistant message may still wait for its tool results (a turn in progress). */
  openLastTurn?: boolean;
}

/**
 * Checks a whole chain: the four roles; user and system messages have content; an assistant message
 * has content or tool calls; every tool message answers a call of the assistant message just before
 * it (only tool messages in between), once; every call is answered before the conversation moves on.
 * Contract: throws MessageValidationError naming the first bad message; returns otherwise.
 */
export function validate(msgs: readonly Message[], opts: ValidateOptions = {}): void {
  let open = new Map<string, number>(); // calls of the current assistant turn → its index
  const unanswered = (i: number) => {
    const [id, at] = [...open.entries()][0] ?? [];
    if (id !== undefined) throw new MessageValidationError(at!, `tool call ${id} has no result before message ${i}`);
  };
  msgs.forEach((m, i) => {
    if (!validRole(m.role)) throw new MessageValidationError(i, `unknown role "${String(m.role)}"`);
    if (typeof m.content !== 'string') throw new MessageValidationError(i, 'content must be a string');
    switch (m.role) {
      case 'tool':
        if (!m.tool_call_id || !m.name) throw new MessageValidationError(i, 'tool message needs tool_call_id and name');
        if (!open.has(m.tool_call_id))
          throw new MessageValidationError(i, `tool message answers no open call of the assistant message before it (tool_call_id ${m.tool_call_id})`);
        open.delete(m.tool_call_id);
        break;
      case 'assistant':
        unanswered(i);
        if (!m.content && !m.tool_calls?.length)
          throw new MessageValidationError(i, 'assistant message needs content or tool_calls');
        open = new Map();
        for (const tc of m.tool_calls ?? []) {
          if (!tc.id || !tc.name) throw new MessageValidationError(i, 'tool call needs id and name');
          open.set(tc.id, i);
        }
        break;
      default:
        unanswered(i);
        if (!m.content.trim()) throw new MessageValidationError(i, `${m.role} message needs content`);
    }
  });
  if (!opts.openLastTurn) unanswered(msgs.length);
}

/** Stricter check for externally submitted messages: only user/system roles, non-empty. */
export function validateUserInput(msgs: readonly Message[]): void {
  if (msgs.length === 0) throw new MessageValidationError(0, 'no messages');
  msgs.forEach((m, i) => {
    if (!userInputRole(m.role)) throw new MessageValidationError(i, `role "${String(m.role)}" is not allowed in user input`);
    if (typeof m.content !== 'string' || !m.content.trim()) throw new MessageValidationError(i, 'content must be non-empty');
  });
}

/** Heuristic token count: len(content)/4 + len(raw tool arguments)/4 (seed 000 §1.6). */
export function estimateTokens(msgs: readonly Message[]): number {
  let chars = 0;
  for (const m of msgs) {
    chars += m.content.length;
    for (const tc of m.tool_calls ?? []) chars += (tc.raw_args ?? JSON.stringify(tc.args)).length;
  }
  return Math.ceil(chars / 4);
}

const LABEL: Record<Role, string> = { system: 'System', user: 'Human', assistant: 'AI', tool: 'Tool' };

/** Human-readable dump in the seed's format. */
export function prettyPrint(msgs: readonly Message[]): string {
  return msgs
    .map((m) => {
      const head = m.role === 'tool' ? `[Tool: ${m.name} (call_id=${m.tool_call_id})]` : `[${LABEL[m.role]}]`;
      const calls = (m.tool_calls ?? []).map((tc) => `  → tool_call: ${tc.name}(id=${tc.id}, args=${JSON.stringify(tc.args)})`);
      return [head, ...(m.content ? [m.content] : []), ...calls].join('\n') + '\n';
    })
    .join('\n');
}

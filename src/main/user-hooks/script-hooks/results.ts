/**
 * What Create and Next may return (docs/agents.md#script-hooks-create--next), checked before anything
 * is applied: a wrong field makes the whole answer a failure of the hook, reported and ignored.
 */
import { z } from 'zod';
import type { Message } from '../../../shared/types/index.ts';
import { validate } from '../../agent/messages.ts';
import { errorMessage } from '../../errors.ts';

/** A conversation message as the script was given it (tool calls and results included). */
const message = z
  .object({ role: z.enum(['system', 'user', 'assistant', 'tool']), content: z.string() })
  .loose();

/** What a delegate is handed: anything message-like; `plainMessages` keeps the text turns. */
const handed = z.object({ role: z.string(), content: z.unknown() }).loose();

const delegate = z
  .object({
    agent_id: z.string().min(1),
    messages: z.array(handed).optional(),
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();

const metadata = z.record(z.string(), z.unknown());

const createResult = z
  .object({
    messages: z.array(message).min(1).optional(),
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: z.number().int().positive().optional(),
    max_completion_tokens: z.number().int().positive().optional(),
    metadata: metadata.optional(),
    delegate: delegate.optional(),
  })
  .loose();

const nextResult = z
  .object({
    delegate: delegate.optional(),
    data: z.unknown().optional(),
    metadata: metadata.optional(),
  })
  .loose();

export type ScriptDelegate = z.infer<typeof delegate>;
export type CreateResult = z.infer<typeof createResult>;
export type NextResult = z.infer<typeof nextResult>;

function parse<T>(schema: z.ZodType<T>, fn: string, value: unknown): T | null {
  if (value === null || value === undefined) return null;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new Error(
    `${fn} returned an invalid answer: ${issue.path.join('.') || 'value'}: ${issue.message}`,
  );
}

/**
 * Create's answer, or null for the defaults. Contract: throws naming the first bad field; its
 * `messages` must be a valid conversation (every tool call answered), as the model will get them.
 */
export function parseCreateResult(value: unknown): CreateResult | null {
  const result = parse(createResult, 'Create', value);
  if (result?.messages) {
    try {
      validate(result.messages as Message[]);
    } catch (err) {
      throw new Error(`Create returned an invalid answer: messages: ${errorMessage(err)}`, {
        cause: err,
      });
    }
  }
  return result;
}

/** Next's answer, or null for the standard response. Contract: throws naming the first bad field. */
export function parseNextResult(value: unknown): NextResult | null {
  return parse(nextResult, 'Next', value);
}

/**
 * Messages handed to a delegate, as a fresh conversation: the system, user and assistant turns with
 * text (tool turns and empty ones are dropped: the delegate has its own tools).
 */
export function plainMessages(
  messages: ReadonlyArray<{ role: string; content: unknown }>,
): Message[] {
  return messages.flatMap((m) =>
    ['system', 'user', 'assistant'].includes(m.role) &&
    typeof m.content === 'string' &&
    m.content.trim() !== ''
      ? [{ role: m.role as Message['role'], content: m.content }]
      : [],
  );
}

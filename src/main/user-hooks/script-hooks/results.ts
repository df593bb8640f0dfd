/**
 * What Create and Next may return (docs/agents.md#script-hooks-create--next), checked before anything
 * is applied: a wrong field makes the whole answer a failure of the hook, reported and ignored.
 */
import { z } from 'zod';
import type { Message } from '../../../shared/types/index.ts';

const message = z
  .object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() })
  .loose();

const delegate = z
  .object({
    agent_id: z.string().min(1),
    messages: z.array(message).optional(),
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

/** Create's answer, or null for the defaults. Contract: throws naming the first bad field. */
export function parseCreateResult(value: unknown): CreateResult | null {
  return parse(createResult, 'Create', value);
}

/** Next's answer, or null for the standard response. Contract: throws naming the first bad field. */
export function parseNextResult(value: unknown): NextResult | null {
  return parse(nextResult, 'Next', value);
}

/**
 * Messages a script handed over, as conversation messages: system, user and assistant turns with text
 * (tool turns and empty ones are dropped; a delegate starts a fresh conversation without the tools).
 */
export function plainMessages(
  messages: ReadonlyArray<{ role: string; content: string }>,
): Message[] {
  return messages
    .filter((m) => ['system', 'user', 'assistant'].includes(m.role) && m.content.trim() !== '')
    .map((m) => ({ role: m.role as Message['role'], content: m.content }));
}

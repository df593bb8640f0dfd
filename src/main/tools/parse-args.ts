/** Argument parsing inside `execute`: the loop validates first, this is the defence when it did not. */
import type { z } from 'zod';
import { ToolError } from './types.ts';

/** Parses tool arguments. Contract: throws a ToolError with a readable message, never a ZodError. */
export function parseArgs<S extends z.ZodType>(schema: S, args: unknown, tool: string): z.output<S> {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
  throw new ToolError(`invalid arguments for ${tool}: ${issues}`);
}

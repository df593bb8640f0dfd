/**
 * Re-validation of a tool input a hook rewrote (security-tests T4.14): the tool's own schema and the
 * workspace path guard, exactly as for input coming from the model.
 */
import type { RunContext } from '../pipeline/hook.ts';
import { errorMessage } from '../errors.ts';

const WRITING_TOOLS = new Set(['write_file', 'edit_file']);

/** Returns why the rewritten input is refused, or undefined when it may be used. */
export async function refuseRewrittenInput(ctx: RunContext, toolName: string, args: Record<string, unknown>): Promise<string | undefined> {
  const tool = ctx.tools.get(toolName);
  if (tool) {
    const parsed = tool.parameters.safeParse(args);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
      return `rewritten input is invalid: ${issues}`;
    }
  }
  for (const key of ['path', 'file_path']) {
    const value = args[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') return `rewritten input is invalid: ${key} must be a string`;
    try {
      await ctx.workspace.resolve(value, WRITING_TOOLS.has(toolName) ? 'write' : 'read');
    } catch (err) {
      return `rewritten input refused: ${errorMessage(err)} (${value})`;
    }
  }
  return undefined;
}

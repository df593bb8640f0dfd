/**
 * Re-validation of a tool input a hook rewrote: the tool's own schema and the workspace path guard on
 * every path the call would read or write (from the tool's effects), exactly as for model input.
 */
import type { ToolResult } from '../../shared/types/index.ts';
import type { RunContext } from '../pipeline/hook.ts';
import { errorMessage } from '../errors.ts';
import { parseToolArgs } from '../tools/call-policy.ts';

/**
 * Returns why the rewritten input is refused, or undefined when it may be used.
 * Contract: an unknown tool gives undefined (dispatch refuses the call without running anything).
 */
export async function refuseRewrittenInput(
  ctx: RunContext,
  toolName: string,
  args: Record<string, unknown>,
): Promise<string | undefined> {
  const tool = ctx.tools.get(toolName);
  if (!tool) return undefined;
  const parsed = parseToolArgs(tool, args);
  if (!parsed.ok) return `rewritten input is invalid: ${parsed.issues}`;
  const effects = tool.effects(parsed.args);
  const paths = [
    ...(effects.reads ?? []).map((p) => [p, 'read'] as const),
    ...(effects.writes ?? []).map((p) => [p, 'write'] as const),
  ];
  for (const [path, access] of paths) {
    try {
      await ctx.workspace.resolve(path, access);
    } catch (err) {
      return `rewritten input refused: ${errorMessage(err)} (${path})`;
    }
  }
  return undefined;
}

/**
 * Marks a result whose call ran with input a hook rewrote: the stored tool message starts with a note
 * naming the hook and the input that ran, and the result carries both for the tool card and the CLI.
 * Contract: the model's own args stay on its tool call; only the result records the rewrite.
 */
export function markRewritten(
  result: ToolResult,
  by: string,
  args: Record<string, unknown>,
): ToolResult {
  const note = `(input changed by hook ${by}; ran with ${JSON.stringify(args)})`;
  return {
    ...result,
    output: result.output ? `${note}\n${result.output}` : note,
    rewritten: { by, args },
  };
}

/**
 * Reading a call through its tool's definition: parsed arguments, effects, kind and preview. Every
 * policy (approval, protected paths, rewritten hook input) goes through here instead of tool names.
 */
import type { Tool, ToolEffects, ToolKind } from './types.ts';

export type ParsedArgs = { ok: true; args: unknown } | { ok: false; issues: string };

/** Validates model arguments with the tool's schema. Contract: never throws; `issues` is readable. */
export function parseToolArgs(tool: Tool, args: unknown): ParsedArgs {
  const parsed = tool.parameters.safeParse(args ?? {});
  if (parsed.success) return { ok: true, args: parsed.data };
  const issues = parsed.error.issues
    .map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`)
    .join('; ');
  return { ok: false, issues };
}

/**
 * What a call would do. Contract: undefined when the arguments are invalid — such a call never runs,
 * because dispatch refuses it.
 */
export function callEffects(tool: Tool, args: unknown): ToolEffects | undefined {
  const parsed = parseToolArgs(tool, args);
  return parsed.ok ? tool.effects(parsed.args) : undefined;
}

/** The approval kind of a call with these effects: a command beats a write beats a read. */
export function effectKind(effects: ToolEffects): ToolKind {
  if (effects.executes !== undefined) return 'execute';
  if (effects.writes !== undefined) return 'write';
  return 'read';
}

/** The approval prompt's text for a call (the tool's preview, else its name and arguments). */
export function previewCall(
  tool: Tool | undefined,
  name: string,
  args: Record<string, unknown>,
): string {
  const parsed = tool ? parseToolArgs(tool, args) : undefined;
  if (tool?.preview && parsed?.ok) return tool.preview(parsed.args);
  return `${name} ${JSON.stringify(args)}`;
}

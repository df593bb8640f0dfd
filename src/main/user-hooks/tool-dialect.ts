/**
 * Workbench tool calls as another agent's hooks see them (docs/hooks.md, "Coming from Claude Code /
 * Kodelet"): the tool's name, input fields and result shape come from its definition's `dialects`
 * entry; a tool without one keeps its own name and arguments.
 */
import { isAbsolute, resolve } from 'node:path';
import type { ToolResult } from '../../shared/types/index.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { ToolDialect } from '../tools/types.ts';

/** Where a tool's definition is looked up: the run's registry. */
export type ToolLookup = Pick<ToolRegistry, 'get'>;
export type DialectName = 'claude' | 'kodelet';

const dialectOf = (
  tools: ToolLookup,
  dialect: DialectName,
  name: string,
): ToolDialect | undefined => tools.get(name)?.dialects?.[dialect];

const absoluteIn = (root: string) => (p: string) => (isAbsolute(p) ? p : resolve(root, p));

/** The tool's name in `dialect` (a tool without one keeps its own). */
export function dialectToolName(tools: ToolLookup, dialect: DialectName, name: string): string {
  return dialectOf(tools, dialect, name)?.name ?? name;
}

/** Workbench arguments → the dialect's `tool_input`. Contract: path fields are absolute. */
export function toDialectInput(
  tools: ToolLookup,
  dialect: DialectName,
  name: string,
  args: Record<string, unknown>,
  workspaceRoot: string,
): Record<string, unknown> {
  const d = dialectOf(tools, dialect, name);
  if (!d) return { ...args };
  const renamed: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) renamed[d.args?.[k] ?? k] = v;
  const out = d.toInput ? d.toInput(renamed) : renamed;
  for (const key of d.paths ?? []) {
    if (typeof out[key] === 'string') out[key] = absoluteIn(workspaceRoot)(out[key] as string);
  }
  return out;
}

/** A hook's rewritten `tool_input` → workbench arguments (the path guard runs on the result afterwards). */
export function fromDialectInput(
  tools: ToolLookup,
  dialect: DialectName,
  name: string,
  input: Record<string, unknown>,
): Record<string, unknown> {
  const d = dialectOf(tools, dialect, name);
  if (!d) return { ...input };
  const back = Object.fromEntries(
    Object.entries(d.args ?? {}).map(([ours, theirs]) => [theirs, ours]),
  );
  const reshaped = d.fromInput ? d.fromInput({ ...input }) : input;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(reshaped)) out[back[k] ?? k] = v;
  return out;
}

/** A finished call in the dialect's result shape (`{output}` for a tool that names none). */
export function toDialectResponse(
  tools: ToolLookup,
  dialect: DialectName,
  name: string,
  args: Record<string, unknown>,
  result: ToolResult,
  workspaceRoot: string,
): Record<string, unknown> {
  const d = dialectOf(tools, dialect, name);
  if (!d?.toResponse) return { output: result.output };
  return d.toResponse({
    args,
    output: result.output,
    status: result.status,
    streams: result.streams,
    absolute: absoluteIn(workspaceRoot),
  });
}

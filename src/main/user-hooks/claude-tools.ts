/**
 * Claude Code ↔ workbench naming, read from each tool's `dialects.claude` (its Claude name and
 * argument names), and the matcher rules of Claude Code settings hooks.
 */
import { isAbsolute, resolve } from 'node:path';
import type { ToolRegistry } from '../tools/registry.ts';

/** Where a tool's definition is looked up: the run's registry. */
export type ToolLookup = Pick<ToolRegistry, 'get'>;

const argNames = (tools: ToolLookup, name: string) => tools.get(name)?.dialects?.claude?.args ?? {};

/** The Claude Code name of a workbench tool (a tool without a Claude name keeps its own). */
export function claudeToolName(tools: ToolLookup, name: string): string {
  return tools.get(name)?.dialects?.claude?.name ?? name;
}

/**
 * Workbench arguments → Claude `tool_input`. Contract: `file_path` is absolute (Claude hooks expect it);
 * arguments the tool does not rename (execute's `command`…) stay as they are.
 */
export function toClaudeInput(
  tools: ToolLookup,
  name: string,
  args: Record<string, unknown>,
  workspaceRoot: string,
): Record<string, unknown> {
  const names = argNames(tools, name);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    const key = names[k] ?? k;
    out[key] =
      key === 'file_path' && typeof v === 'string' && !isAbsolute(v)
        ? resolve(workspaceRoot, v)
        : v;
  }
  return out;
}

/** Claude `updatedInput` → workbench arguments (the path guard runs on the result afterwards). */
export function fromClaudeInput(
  tools: ToolLookup,
  name: string,
  input: Record<string, unknown>,
): Record<string, unknown> {
  const back = Object.fromEntries(
    Object.entries(argNames(tools, name)).map(([ours, theirs]) => [theirs, ours]),
  );
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) out[back[k] ?? k] = v;
  return out;
}

/**
 * Whether a matcher selects `value`: empty/`*`/absent = all; only name characters = exact or a `|`
 * (or `,`) list; anything else = an unanchored JavaScript regex. An invalid regex matches nothing.
 */
export function matcherMatches(matcher: string | undefined, value: string): boolean {
  const m = (matcher ?? '').trim();
  if (m === '' || m === '*') return true;
  if (/^[A-Za-z0-9_\- ,|]+$/.test(m)) {
    return m
      .split(/[|,]/)
      .map((s) => s.trim())
      .filter(Boolean)
      .includes(value);
  }
  try {
    return new RegExp(m).test(value);
  } catch {
    return false;
  }
}

/** Claude's permission_mode for our approval mode. */
export function permissionMode(mode: string): string {
  if (mode === 'auto-edit') return 'acceptEdits';
  if (mode === 'auto') return 'bypassPermissions';
  return 'default';
}

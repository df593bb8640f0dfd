/**
 * Claude Code naming (tool names and inputs from each tool's `dialects.claude`, see tool-dialect.ts),
 * the matcher rules of Claude Code settings hooks and the permission mode they are told.
 */
import type { ApprovalMode } from '../../shared/types/index.ts';
import { dialectToolName, fromDialectInput, toDialectInput, type ToolLookup } from './tool-dialect.ts';

export type { ToolLookup } from './tool-dialect.ts';

/** The Claude Code name of a workbench tool (a tool without a Claude name keeps its own). */
export const claudeToolName = (tools: ToolLookup, name: string): string => dialectToolName(tools, 'claude', name);

/** Workbench arguments → Claude `tool_input`. Contract: path fields are absolute (Claude hooks expect it). */
export const toClaudeInput = (tools: ToolLookup, name: string, args: Record<string, unknown>, workspaceRoot: string) =>
  toDialectInput(tools, 'claude', name, args, workspaceRoot);

/** Claude `updatedInput` → workbench arguments (the path guard runs on the result afterwards). */
export const fromClaudeInput = (tools: ToolLookup, name: string, input: Record<string, unknown>) =>
  fromDialectInput(tools, 'claude', name, input);

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

/** Claude's permission_mode for the run's approval mode. */
export function permissionMode(mode: ApprovalMode): string {
  if (mode === 'auto-edit') return 'acceptEdits';
  if (mode === 'auto') return 'bypassPermissions';
  return 'default';
}

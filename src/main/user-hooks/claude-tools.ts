/**
 * Claude Code ↔ workbench naming: tool names and argument names both ways, and the matcher rules
 * (reference/claude-code-hooks.md §2.3).
 */
import { isAbsolute, resolve } from 'node:path';

const TO_CLAUDE: Record<string, string> = {
  execute: 'Bash',
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Edit',
  glob: 'Glob',
  grep: 'Grep',
  ls: 'LS',
};
const FROM_CLAUDE: Record<string, string> = Object.fromEntries(Object.entries(TO_CLAUDE).map(([a, b]) => [b, a]));
const ARG_TO_CLAUDE: Record<string, string> = { path: 'file_path', old_text: 'old_string', new_text: 'new_string' };
const ARG_FROM_CLAUDE: Record<string, string> = Object.fromEntries(Object.entries(ARG_TO_CLAUDE).map(([a, b]) => [b, a]));

/** The Claude Code name of a workbench tool (unknown tools keep their name). */
export const claudeToolName = (name: string): string => TO_CLAUDE[name] ?? name;
/** The workbench name of a Claude Code tool name. */
export const workbenchToolName = (name: string): string => FROM_CLAUDE[name] ?? name;

/**
 * Workbench arguments → Claude `tool_input`. Contract: `file_path` is absolute (Claude hooks expect it);
 * execute's `command` and unmapped names stay as they are.
 */
export function toClaudeInput(args: Record<string, unknown>, workspaceRoot: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    const key = ARG_TO_CLAUDE[k] ?? k;
    out[key] = key === 'file_path' && typeof v === 'string' && !isAbsolute(v) ? resolve(workspaceRoot, v) : v;
  }
  return out;
}

/** Claude `updatedInput` → workbench arguments (the path guard runs on the result afterwards). */
export function fromClaudeInput(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) out[ARG_FROM_CLAUDE[k] ?? k] = v;
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

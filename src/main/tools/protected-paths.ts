/**
 * Workspace files that make git or the workbench run code later (hooks, settings, agent profile,
 * .git): writing them always needs a person's approval, and the sandbox binds them read-only.
 * Matched case-insensitively, because on a case-insensitive file system `.GIT/hooks` is `.git/hooks`.
 */
export const PROTECTED_PATHS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\.git(\/|$)/i, 'is inside .git (git hooks and config run code)'],
  [/^\.workbench\/hooks(\/|$)/i, 'is a workbench hook (hooks run as programs)'],
  [/^\.workbench\/(settings|agent)\.(json|ya?ml)$/i, 'is workbench configuration'],
  [/^\.claude\/(settings[^/]*\.json|hooks(\/|$))/i, 'is Claude Code hook configuration'],
  [/^\.mcp\.json$/i, 'is MCP server configuration (servers run as programs)'],
];

/**
 * Why a workspace-relative path (forward slashes) is protected, or undefined.
 * Contract: `rel` is relative to the workspace root and normalised (no `..`, no leading `./`).
 */
export function protectedPathReason(rel: string): string | undefined {
  for (const [re, why] of PROTECTED_PATHS) if (re.test(rel)) return why;
  return undefined;
}

/** Claude Code's `allowed-tools` frontmatter key, of a skill or a custom command. */

/** `allowed-tools` as a list: a YAML list, or one string of names separated by commas or spaces (`Bash(git add:*) Read`). */
export function allowedTools(v: unknown): string[] | undefined {
  const text = Array.isArray(v) ? v.map(String).join(',') : typeof v === 'string' ? v : '';
  const tools = text.match(/[^\s,()]+(?:\([^)]*\))?/g) ?? [];
  return tools.length ? tools : undefined;
}

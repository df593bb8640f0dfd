/**
 * Filling a recipe template (docs/recipes.md), as Claude Code fills custom commands: `$ARGUMENTS`
 * is the whole argument text, `$1`…`$9` the positional arguments; a template with neither gets the
 * arguments appended as `ARGUMENTS: …`. Kodelet-style `{{.key}}` placeholders take named arguments.
 */

/** `/name args` in a composer message or a CLI prompt; undefined when the text is no command. */
export function parseSlashCommand(text: string): { name: string; args: string } | undefined {
  const m = /^\/([A-Za-z0-9][\w.:-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1], args: (m[2] ?? '').trim() } : undefined;
}

/** Splits arguments on whitespace, keeping "double" or 'single' quoted parts together. */
export function splitArguments(args: string): string[] {
  const out: string[] = [];
  for (const m of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/**
 * The prompt of a recipe for `args`.
 * Contract: pure; unknown `$N` become empty like Claude Code's; `named` fills `{{.key}}`.
 */
export function renderRecipe(
  body: string,
  args: string,
  named: Record<string, string> = {},
): string {
  const positional = splitArguments(args);
  const usesArgs = /\$ARGUMENTS|\$[1-9]/.test(body);
  let text = body
    .replace(/\$ARGUMENTS/g, () => args)
    .replace(/\$([1-9])/g, (_, n: string) => positional[Number(n) - 1] ?? '')
    .replace(/\{\{\s*\.([A-Za-z_]\w*)\s*\}\}/g, (whole, key: string) => named[key] ?? whole);
  if (!usesArgs && args) text = `${text.trimEnd()}\n\nARGUMENTS: ${args}`;
  return text.trim();
}

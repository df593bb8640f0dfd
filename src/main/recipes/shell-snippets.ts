/**
 * Claude Code's `` !`command` `` in a custom command (docs/recipes.md#commands-in-a-recipe): each
 * command runs before the prompt is sent, and its output takes its place. As in Claude Code, a
 * command runs only when the recipe's `allowed-tools` covers it with a `Bash(…)` rule; here the
 * settings' deny and ask rules hold too, every command is checked before any runs, and the run
 * itself is the caller's (sandboxed as the agent's commands are).
 */
import { WorkbenchError } from '../errors.ts';
import { everyCommandMatches, parseClaudeRule } from '../user-hooks/claude-rules.ts';

const SNIPPET = /!`([^`\n]+)`/g;

/** What a recipe's commands are checked against and run with. */
export interface SnippetOptions {
  recipe: string;
  /** The recipe's `allowed-tools`. */
  allowedTools: readonly string[];
  /** Why the settings' rules keep a command from running, or undefined. */
  refusal(command: string): string | undefined;
  /** Runs a command; its output as it should stand in the prompt. */
  run(command: string): Promise<string>;
}

/** The `Bash(…)` patterns of `allowed-tools`; `*` for a bare `Bash`. */
function bashPatterns(tools: readonly string[]): string[] {
  return tools.flatMap((text) => {
    const rule = parseClaudeRule(text);
    if (typeof rule === 'string' || rule.tool !== 'Bash') return [];
    return [rule.specifier ?? '*'];
  });
}

/**
 * `text` with each `` !`command` `` replaced by what `run` gave for it.
 * Contract: a text without any is returned as it is; a command the recipe's rules do not cover, or
 * one the settings refuse, is a WorkbenchError before anything runs.
 */
export async function expandSnippets(text: string, o: SnippetOptions): Promise<string> {
  const found = [...text.matchAll(SNIPPET)];
  if (found.length === 0) return text;
  const patterns = bashPatterns(o.allowedTools);
  for (const m of found) {
    const command = m[1]!.trim();
    if (!patterns.includes('*') && !everyCommandMatches(patterns, command))
      throw new WorkbenchError(
        'invalid_args',
        `recipe ${o.recipe}: !\`${command}\` is not run: no Bash rule of its allowed-tools covers it`,
      );
    const refused = o.refusal(command);
    if (refused)
      throw new WorkbenchError(
        'forbidden',
        `recipe ${o.recipe}: !\`${command}\` is not run: ${refused}`,
      );
  }
  let out = '';
  let at = 0;
  for (const m of found) {
    out += text.slice(at, m.index) + (await o.run(m[1]!.trim()));
    at = m.index + m[0].length;
  }
  return out + text.slice(at);
}

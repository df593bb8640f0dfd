/**
 * Claude Code's `` !`command` `` and ```` ```! ```` blocks in a custom command or a skill you invoke
 * (docs/recipes.md#commands-in-a-recipe): each runs before the prompt is sent, and its output takes
 * its place. As in Claude Code, the inline form counts only where `!` starts a line or follows a
 * space (`KEY=!`x`` stays text), a block's lines run as one script, a command runs only when the
 * `allowed-tools` covers it with a `Bash(…)` rule, and `"disableSkillShellExecution": true` puts
 * `[shell execution disabled]` in their place instead. Here the settings' deny and ask rules hold
 * too, every command is checked before any runs, and the run itself is the caller's (sandboxed as
 * the agent's commands are). Output put in is never scanned again.
 */
import { WorkbenchError } from '../errors.ts';
import { everyCommandMatches, parseClaudeRule } from '../user-hooks/claude-rules.ts';

/** What stands in a command's place when the settings switch them off, as in Claude Code. */
export const SHELL_DISABLED = '[shell execution disabled]';

const INLINE = /(?<=^|\s)!`([^`\n]+)`/g;
const BLOCK = /^```![ \t]*\r?\n([\s\S]*?)^```[ \t]*$/gm;

/** What a prompt's commands are checked against and run with. */
export interface SnippetOptions {
  /** Who asks, for messages: `recipe commit`, `skill deploy`. */
  from: string;
  /** The recipe's or skill's `allowed-tools`. */
  allowedTools: readonly string[];
  /** Why the settings' rules keep a command from running, or undefined. */
  refusal(command: string): string | undefined;
  /** Runs a command (a block's whole script); its output as it should stand in the prompt. */
  run(command: string): Promise<string>;
}

interface Snippet {
  start: number;
  end: number;
  command: string;
  block: boolean;
}

/** Whether `text` may hold a command at all (a cheap test before anything is read). */
export function mayHaveSnippets(text: string): boolean {
  return text.includes('!`') || text.includes('```!');
}

/** The commands of `text` in order; an inline form inside a block is part of the block's script. */
function findSnippets(text: string): Snippet[] {
  const blocks: Snippet[] = [...text.matchAll(BLOCK)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    command: m[1]!.replace(/\r?\n$/, ''),
    block: true,
  }));
  const inline: Snippet[] = [...text.matchAll(INLINE)]
    .map((m) => ({
      start: m.index,
      end: m.index + m[0].length,
      command: m[1]!.trim(),
      block: false,
    }))
    .filter((s) => !blocks.some((b) => s.start < b.end && s.end > b.start));
  return [...blocks, ...inline].sort((a, b) => a.start - b.start);
}

/** How a command is named in a message: the inline form as written, a block by its first line. */
function shown(s: Snippet): string {
  if (!s.block) return `!\`${s.command}\``;
  const [first, ...rest] = s.command.trim().split('\n');
  return `the \`\`\`! block "${first!.trim()}${rest.length ? ' …' : ''}"`;
}

/** The `Bash(…)` patterns of `allowed-tools`; `*` for a bare `Bash`. */
function bashPatterns(tools: readonly string[]): string[] {
  return tools.flatMap((text) => {
    const rule = parseClaudeRule(text);
    if (typeof rule === 'string' || rule.tool !== 'Bash') return [];
    return [rule.specifier ?? '*'];
  });
}

/** `text` with each command's place filled by `fill` (one pass: what it puts in is not scanned). */
async function fillSnippets(
  text: string,
  found: readonly Snippet[],
  fill: (s: Snippet) => Promise<string> | string,
): Promise<string> {
  let out = '';
  let at = 0;
  for (const s of found) {
    out += text.slice(at, s.start) + (await fill(s));
    at = s.end;
  }
  return out + text.slice(at);
}

/**
 * `text` with each command replaced by what `run` gave for it.
 * Contract: a text without any is returned as it is; a command `allowed-tools` does not cover, or
 * one the settings refuse, is a WorkbenchError before anything runs.
 */
export async function expandSnippets(text: string, o: SnippetOptions): Promise<string> {
  const found = findSnippets(text);
  if (found.length === 0) return text;
  const patterns = bashPatterns(o.allowedTools);
  for (const s of found) {
    if (!patterns.includes('*') && !everyCommandMatches(patterns, s.command))
      throw new WorkbenchError(
        'invalid_args',
        `${o.from}: ${shown(s)} is not run: no Bash rule of its allowed-tools covers it`,
      );
    const refused = o.refusal(s.command);
    if (refused)
      throw new WorkbenchError('forbidden', `${o.from}: ${shown(s)} is not run: ${refused}`);
  }
  return fillSnippets(text, found, (s) => o.run(s.command));
}

/** `text` with SHELL_DISABLED in each command's place, for `"disableSkillShellExecution": true`. */
export function disableSnippets(text: string): Promise<string> {
  return fillSnippets(text, findSnippets(text), () => SHELL_DISABLED);
}

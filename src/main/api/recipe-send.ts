/**
 * Turns a send's recipe (`--recipe NAME`, a composer `/name args`) into the run's prompt: a skill you
 * invoke (docs/skills.md#invoking-a-skill), else a recipe (docs/recipes.md), else an MCP prompt.
 */
import { WorkbenchError } from '../errors.ts';
import { findRecipe, type RecipeRoots, type RecipeSource } from '../recipes/loader.ts';
import { parseSlashCommand, renderRecipe } from '../recipes/render.ts';
import { readSkillBody, renderSkill, type InvocableSkill } from '../skills/invocation.ts';
import type { SnippetSource } from './recipe-snippets.ts';
import type { SendArgs } from './types.ts';

/** An MCP prompt's message for `/name typed`, or undefined when no server has that prompt. */
export type ExpandMcpPrompt = (name: string, typed: string) => Promise<string | undefined>;

/** A rendered recipe or skill with its `` !`command` `` lines run and filled in (api/recipe-snippets.ts). */
export type ExpandSnippets = (source: SnippetSource, text: string) => Promise<string>;

export interface RecipeSendOptions {
  mcpPrompt?: ExpandMcpPrompt;
  snippets?: ExpandSnippets;
  /** The skills the user may invoke (skills/invocation.ts); read only when a name was given. */
  skills?: () => Promise<InvocableSkill[]>;
  /** The thread's id, for a skill's `${CLAUDE_SESSION_ID}`. */
  sessionId?: string;
}

/** What a send runs: its name, the filled prompt, the arguments as typed and where it came from. */
export interface ResolvedRecipe {
  name: string;
  text: string;
  args: string;
  source: RecipeSource;
}

/**
 * The recipe or skill a send runs and its filled prompt, or undefined for a plain message. As in
 * Claude Code a skill wins over a recipe of the same name; a name neither has may be an MCP
 * server's prompt (`mcp__<server>__<prompt>`).
 * Contract: an unknown `--recipe` is a WorkbenchError not_found; `/word` naming nothing is sent as
 * typed (a path like `/etc/hosts` stays a message).
 */
export async function resolveRecipe(
  args: Pick<SendArgs, 'text' | 'recipe' | 'recipeArgs'>,
  roots: RecipeRoots,
  o: RecipeSendOptions = {},
): Promise<ResolvedRecipe | undefined> {
  const slash = args.recipe ? undefined : parseSlashCommand(args.text);
  const name = args.recipe ?? slash?.name;
  if (!name) return undefined;
  const typed = args.recipe ? args.text.trim() : slash!.args;
  const skill = (await o.skills?.())?.find((s) => s.name === name);
  if (skill) return invokeSkill(skill, typed, o);
  const recipe = await findRecipe(roots, name);
  if (!recipe) {
    const text = name.startsWith('mcp__') ? await o.mcpPrompt?.(name, typed) : undefined;
    if (text !== undefined) return { name, text, args: typed, source: 'mcp' };
    if (args.recipe) throw new WorkbenchError('not_found', `unknown recipe ${name}`);
    return undefined;
  }
  const rendered = renderRecipe(recipe.body, typed, args.recipeArgs);
  if (!rendered) throw new WorkbenchError('invalid_args', `recipe ${name} is empty`);
  const text = o.snippets ? await o.snippets({ kind: 'recipe', ...recipe }, rendered) : rendered;
  return { name, text, args: typed, source: recipe.source };
}

async function invokeSkill(
  skill: InvocableSkill,
  typed: string,
  o: RecipeSendOptions,
): Promise<ResolvedRecipe> {
  const rendered = renderSkill(await readSkillBody(skill), typed, {
    dir: skill.dir,
    sessionId: o.sessionId ?? '',
    argumentNames: skill.argument_names,
  });
  if (!rendered) throw new WorkbenchError('invalid_args', `skill ${skill.name} is empty`);
  const text = o.snippets ? await o.snippets({ kind: 'skill', ...skill }, rendered) : rendered;
  const source = skill.scope === 'workspace' ? 'skill' : 'skill-user';
  return { name: skill.name, text, args: typed, source };
}

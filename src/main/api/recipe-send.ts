/** Turns a send's recipe (`--recipe NAME`, a composer `/name args`) into the run's prompt (docs/recipes.md). */
import { WorkbenchError } from '../errors.ts';
import { findRecipe, type Recipe, type RecipeRoots, type RecipeSource } from '../recipes/loader.ts';
import { parseSlashCommand, renderRecipe } from '../recipes/render.ts';
import type { SendArgs } from './types.ts';

/** An MCP prompt's message for `/name typed`, or undefined when no server has that prompt. */
export type ExpandMcpPrompt = (name: string, typed: string) => Promise<string | undefined>;

/** A rendered recipe with its `` !`command` `` lines run and filled in (api/recipe-snippets.ts). */
export type ExpandSnippets = (recipe: Recipe, text: string) => Promise<string>;

/**
 * The recipe a send runs and its filled prompt, or undefined for a plain message. A name no recipe
 * file has may be an MCP server's prompt (`mcp__<server>__<prompt>`).
 * Contract: an unknown `--recipe` is a WorkbenchError not_found; `/word` naming no recipe is sent
 * as typed (a path like `/etc/hosts` stays a message).
 */
export async function resolveRecipe(
  args: Pick<SendArgs, 'text' | 'recipe' | 'recipeArgs'>,
  roots: RecipeRoots,
  mcpPrompt?: ExpandMcpPrompt,
  snippets?: ExpandSnippets,
): Promise<{ name: string; text: string; args: string; source: RecipeSource } | undefined> {
  const slash = args.recipe ? undefined : parseSlashCommand(args.text);
  const name = args.recipe ?? slash?.name;
  if (!name) return undefined;
  const typed = args.recipe ? args.text.trim() : slash!.args;
  const recipe = await findRecipe(roots, name);
  if (!recipe) {
    const text = name.startsWith('mcp__') ? await mcpPrompt?.(name, typed) : undefined;
    if (text !== undefined) return { name, text, args: typed, source: 'mcp' };
    if (args.recipe) throw new WorkbenchError('not_found', `unknown recipe ${name}`);
    return undefined;
  }
  const rendered = renderRecipe(recipe.body, typed, args.recipeArgs);
  if (!rendered) throw new WorkbenchError('invalid_args', `recipe ${name} is empty`);
  const text = snippets ? await snippets(recipe, rendered) : rendered;
  return { name, text, args: typed, source: recipe.source };
}

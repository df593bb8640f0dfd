/**
 * Recipes (docs/recipes.md): reusable prompt templates, one Markdown file each, from
 * `.workbench/recipes/` and Claude Code's `.claude/commands/` of the workspace (only when it is
 * trusted), then `$WORKBENCH_HOME/recipes/` and `~/.claude/commands/`. The first folder holding a
 * name wins.
 */
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { readFrontmatter } from '../skills/frontmatter.ts';
import { allowedTools } from '../skills/allowed-tools.ts';
import { compareStrings } from '../tools/glob.ts';
import { readTextIfFile } from '../fs/read-text-if-file.ts';
import { claudeConfigDir } from '../env/claude-config-dir.ts';

/**
 * Where a recipe comes from; `mcp`: an MCP server's prompt (src/main/mcp/prompt-recipes.ts);
 * `skill`/`skill-user`: a skill you invoke, the workspace's or yours (src/main/skills/invocation.ts).
 */
export type RecipeSource =
  'workspace' | 'claude' | 'user' | 'claude-user' | 'mcp' | 'skill' | 'skill-user';

/** One recipe: its name is the file name without `.md`. */
export interface Recipe {
  name: string;
  description: string;
  argument_hint?: string;
  source: RecipeSource;
  path: string;
  /** The template after the frontmatter. */
  body: string;
  /** Claude Code's `allowed-tools`: its `Bash(…)` rules let the recipe's `!`command`` lines run. */
  allowed_tools?: string[];
}

export interface RecipeRoots {
  workspace: string;
  home: string;
  /** Workspace recipes are read only from a trusted workspace. */
  trusted: boolean;
}

function roots(opts: RecipeRoots): { dir: string; source: RecipeSource }[] {
  const workspace: { dir: string; source: RecipeSource }[] = [
    { dir: join(opts.workspace, '.workbench', 'recipes'), source: 'workspace' },
    { dir: join(opts.workspace, '.claude', 'commands'), source: 'claude' },
  ];
  return [
    ...(opts.trusted ? workspace : []),
    { dir: join(opts.home, 'recipes'), source: 'user' },
    { dir: join(claudeConfigDir(), 'commands'), source: 'claude-user' },
  ];
}

/** Splits `---` frontmatter from the body; a file without one is all body. */
function parseRecipe(text: string): { meta: Record<string, unknown>; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!m) return { meta: {}, body: text };
  const read = readFrontmatter(m[1]);
  return { meta: read.ok ? read.data : {}, body: m[2] };
}

/** The first paragraph line of the body, for a recipe without a description. */
function firstLine(body: string): string {
  return (
    body
      .split('\n')
      .find((l) => l.trim())
      ?.replace(/^#+\s*/, '')
      .trim()
      .slice(0, 100) ?? ''
  );
}

/** Folders below a root that are looked into (`commands/frontend/ui/x.md`). */
const MAX_DEPTH = 3;

/**
 * The `.md` files of a folder and, as Claude Code groups commands in subfolders (the name stays
 * the file's), of its subfolders: a folder's own files first, then each subfolder in name order.
 * Linked folders are not entered (a link could lead anywhere, or around in a loop).
 */
async function markdownFiles(dir: string, depth = 0): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const sorted = entries.sort((a, b) => compareStrings(a.name, b.name));
  const files = sorted.filter((e) => !e.isDirectory() && e.name.endsWith('.md'));
  const out = files.map((e) => join(dir, e.name));
  if (depth >= MAX_DEPTH) return out;
  for (const sub of sorted.filter((e) => e.isDirectory()))
    out.push(...(await markdownFiles(join(dir, sub.name), depth + 1)));
  return out;
}

/** Every recipe, by name, the first root winning. Contract: unreadable folders and files are skipped. */
export async function listRecipes(opts: RecipeRoots): Promise<Recipe[]> {
  const found = new Map<string, Recipe>();
  for (const root of roots(opts)) {
    for (const path of await markdownFiles(root.dir)) {
      const name = basename(path, '.md');
      if (found.has(name) || !/^[A-Za-z0-9][\w.-]*$/.test(name)) continue;
      // A FIFO is never read: it would hold the list until a writer came.
      const text = await readTextIfFile(path);
      if (text === undefined) continue;
      const { meta, body } = parseRecipe(text);
      const hint = meta['argument-hint'];
      const tools = allowedTools(meta['allowed-tools']);
      found.set(name, {
        name,
        description: typeof meta.description === 'string' ? meta.description : firstLine(body),
        ...(typeof hint === 'string' && hint ? { argument_hint: hint } : {}),
        source: root.source,
        path,
        body,
        ...(tools ? { allowed_tools: tools } : {}),
      });
    }
  }
  return [...found.values()].sort((a, b) => compareStrings(a.name, b.name));
}

/** The recipe called `name`, or undefined. */
export async function findRecipe(opts: RecipeRoots, name: string): Promise<Recipe | undefined> {
  return (await listRecipes(opts)).find((r) => r.name === name);
}

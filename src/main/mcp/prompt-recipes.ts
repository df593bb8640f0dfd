/**
 * MCP servers' prompts as recipes (docs/recipes.md#mcp-prompts), as Claude Code offers them:
 * `/mcp__<server>__<prompt> arg1 arg2` fills the prompt's arguments in the order the server declares
 * them (quoted parts kept together, the last argument taking what is left) and sends what the server
 * answers as the message.
 */
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, WorkbenchError } from '../errors.ts';
import { splitArguments } from '../recipes/render.ts';
import type { McpConnection } from './connection.ts';
import { qualifiedName } from './tools.ts';

/** How long a server may take to fill a prompt. */
const PROMPT_TIMEOUT_MS = 30_000;

/** A prompt as the composer lists it. */
export interface PromptRecipe {
  name: string;
  description: string;
  argument_hint?: string;
  source: 'mcp';
}

/** The prompts of the connected servers, under their command names. */
export function promptRecipes(conns: readonly McpConnection[]): PromptRecipe[] {
  return conns.flatMap((conn) =>
    conn.prompts().map((p) => {
      const hint = argumentHint(p);
      return {
        name: qualifiedName(conn.spec.name, p.name),
        description: p.description ?? p.title ?? `${p.name} (MCP server ${conn.spec.name})`,
        ...(hint ? { argument_hint: hint } : {}),
        source: 'mcp' as const,
      };
    }),
  );
}

/** `NAME [STYLE]`: required arguments bare, optional ones in brackets, in the server's order. */
function argumentHint(p: Prompt): string {
  return (p.arguments ?? [])
    .map((a) => (a.required ? a.name.toUpperCase() : `[${a.name.toUpperCase()}]`))
    .join(' ');
}

/**
 * The message `/name typed` stands for, or undefined when no connected server has a prompt of that
 * name. Contract: a missing required argument or a server's refusal is a WorkbenchError saying so.
 */
export async function expandPrompt(
  conns: readonly McpConnection[],
  name: string,
  typed: string,
): Promise<string | undefined> {
  for (const conn of conns) {
    const prompt = conn.prompts().find((p) => qualifiedName(conn.spec.name, p.name) === name);
    if (!prompt) continue;
    const declared = prompt.arguments ?? [];
    const words = splitArguments(typed);
    const args: Record<string, string> = {};
    declared.forEach((a, i) => {
      const value = i === declared.length - 1 ? words.slice(i).join(' ') : words[i];
      if (value) args[a.name] = value;
    });
    const missing = declared.filter((a) => a.required && !args[a.name]).map((a) => a.name);
    if (missing.length > 0)
      throw new WorkbenchError(
        'invalid_args',
        `/${name} needs ${missing.join(' and ')} (/${name} ${argumentHint(prompt)})`,
      );
    let result: GetPromptResult;
    try {
      result = await conn.getPrompt(prompt.name, args, { timeoutMs: PROMPT_TIMEOUT_MS });
    } catch (err) {
      throw new WorkbenchError(
        'invalid_args',
        `MCP server "${conn.spec.name}" could not fill the prompt ${prompt.name}: ${errorMessage(err)}`,
      );
    }
    const text = promptText(result);
    if (!text)
      throw new WorkbenchError(
        'invalid_args',
        `the prompt ${prompt.name} of MCP server "${conn.spec.name}" is empty`,
      );
    return text;
  }
  return undefined;
}

/** The prompt's messages as one message: their text, other parts described. */
export function promptText(result: GetPromptResult): string {
  return result.messages
    .map((m) => {
      const c = m.content;
      if (c.type === 'text') return c.text;
      if (c.type === 'resource')
        return 'text' in c.resource ? String(c.resource.text) : `[resource: ${c.resource.uri}]`;
      if (c.type === 'resource_link') return `[resource: ${c.uri}]`;
      return `[${c.type}${'mimeType' in c ? `: ${c.mimeType}` : ''}]`;
    })
    .filter((t) => t.trim())
    .join('\n\n')
    .trim();
}

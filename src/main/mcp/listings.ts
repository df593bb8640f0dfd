/** A connected server's listings (tools, prompts, resources), page after page (MCP pagination). */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Prompt, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';

/** The most prompts kept of one server; a server listing more gets the first ones offered. */
const MAX_PROMPTS = 200;

/** The items of a paginated MCP listing, at most `max` (`more` when the server has others). */
export async function collectPages<T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
  max = Infinity,
): Promise<{ items: T[]; more: boolean }> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const next = await page(cursor);
    items.push(...next.items);
    cursor = next.nextCursor;
  } while (cursor && items.length < max);
  return { items: items.slice(0, max), more: items.length > max || cursor !== undefined };
}

/** Every tool of the server. Rejects when it cannot list them. */
export async function listAllTools(c: Client, timeout: number): Promise<McpTool[]> {
  const { items } = await collectPages(async (cursor) => {
    const page = await c.listTools(cursor ? { cursor } : undefined, { timeout });
    return { items: page.tools, nextCursor: page.nextCursor };
  });
  return items;
}

/** Its prompts, when it offers any. Rejects when it cannot list them. */
export async function listAllPrompts(c: Client, timeout: number): Promise<Prompt[]> {
  if (!c.getServerCapabilities()?.prompts) return [];
  const { items } = await collectPages(async (cursor) => {
    const page = await c.listPrompts(cursor ? { cursor } : undefined, { timeout });
    return { items: page.prompts, nextCursor: page.nextCursor };
  }, MAX_PROMPTS);
  return items;
}

import { describe, expect, it } from 'vitest';
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { McpConnection } from '../../../src/main/mcp/connection.ts';
import { expandPrompt, promptRecipes, promptText } from '../../../src/main/mcp/prompt-recipes.ts';

/** A connected server with `prompts`, answering each with the arguments it got. */
function server(
  name: string,
  prompts: Prompt[],
): McpConnection & { got: Record<string, string>[] } {
  const got: Record<string, string>[] = [];
  const conn = {
    spec: { name },
    got,
    prompts: () => prompts,
    getPrompt: async (_: string, args: Record<string, string>): Promise<GetPromptResult> => {
      got.push(args);
      return {
        messages: [{ role: 'user', content: { type: 'text', text: JSON.stringify(args) } }],
      };
    },
  };
  return conn as unknown as McpConnection & { got: Record<string, string>[] };
}

const review: Prompt = {
  name: 'review',
  description: 'Reviews a file',
  arguments: [
    { name: 'file', required: true },
    { name: 'focus', required: false },
  ],
};

describe('MCP prompts as recipes', () => {
  it('are listed under Claude Code’s command names, with their arguments as a hint', () => {
    expect(promptRecipes([server('my server', [review, { name: 'plain' }])])).toEqual([
      {
        name: 'mcp__my_server__review',
        description: 'Reviews a file',
        argument_hint: 'FILE [FOCUS]',
        source: 'mcp',
      },
      { name: 'mcp__my_server__plain', description: 'plain (MCP server my server)', source: 'mcp' },
    ]);
  });

  it('fill the arguments in order, quoted parts kept together, the last taking the rest', async () => {
    const s = server('demo', [review]);
    expect(await expandPrompt([s], 'mcp__demo__review', '"src/a b.ts" errors and style')).toBe(
      '{"file":"src/a b.ts","focus":"errors and style"}',
    );
    expect(await expandPrompt([s], 'mcp__demo__review', 'src/app.ts')).toBe(
      '{"file":"src/app.ts"}',
    );
    expect(await expandPrompt([s], 'mcp__demo__other', 'x')).toBeUndefined();
    await expect(expandPrompt([s], 'mcp__demo__review', '')).rejects.toThrow(
      '/mcp__demo__review needs file (/mcp__demo__review FILE [FOCUS])',
    );
    expect(s.got).toHaveLength(2);
  });

  it('send the messages’ text, other parts described', () => {
    expect(
      promptText({
        messages: [
          { role: 'user', content: { type: 'text', text: 'Look at this:' } },
          {
            role: 'user',
            content: { type: 'resource', resource: { uri: 'demo://a', text: 'the text of a' } },
          },
          {
            role: 'user',
            content: { type: 'resource', resource: { uri: 'demo://b', blob: 'AAAA' } },
          },
          { role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
          { role: 'assistant', content: { type: 'text', text: '  ' } },
        ],
      }),
    ).toBe('Look at this:\n\nthe text of a\n\n[resource: demo://b]\n\n[image: image/png]');
  });
});

/** An mcp_tool handler's fields and its `${path}` placeholders, filled from the hook's input. */
import { describe, expect, it } from 'vitest';
import { fillInput, parseMcpToolHandler } from '../../../src/main/user-hooks/claude-mcp-tool.ts';

const hookInput = {
  cwd: '/work/app',
  tool_input: { file_path: '/work/app/a.ts', edits: [{ old: 'x' }] },
  duration_ms: 12,
};

describe('mcp_tool handlers', () => {
  it('fill placeholders at any depth: text as is, other values as JSON, absent ones empty', () => {
    expect(
      fillInput(
        {
          path: '${tool_input.file_path}',
          note: 'in ${cwd} after ${duration_ms} ms',
          edits: '${tool_input.edits}',
          list: ['${cwd}', 3, { missing: '[${tool_input.nope}]' }],
          untouched: true,
        },
        hookInput,
      ),
    ).toEqual({
      path: '/work/app/a.ts',
      note: 'in /work/app after 12 ms',
      edits: '[{"old":"x"}]',
      list: ['/work/app', 3, { missing: '[]' }],
      untouched: true,
    });
  });

  it('name what a handler lacks', () => {
    expect(parseMcpToolHandler({ type: 'mcp_tool', tool: 'scan' })).toBe(
      'an mcp_tool handler needs a "server" name',
    );
    expect(parseMcpToolHandler({ type: 'mcp_tool', server: 's' })).toBe(
      'an mcp_tool handler needs a "tool" name',
    );
    expect(parseMcpToolHandler({ type: 'mcp_tool', server: 's', tool: 't', input: 'x' })).toBe(
      '"input" must be an object',
    );
    expect(parseMcpToolHandler({ type: 'mcp_tool', server: 's', tool: 't' })).toEqual({
      server: 's',
      tool: 't',
      input: {},
    });
  });
});

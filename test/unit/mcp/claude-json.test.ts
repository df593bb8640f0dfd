/** Claude Code's `~/.claude.json` as a source of MCP servers (docs/tools.md#coming-from-claude-code). */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeJsonPath, readClaudeJsonMcp } from '../../../src/main/mcp/claude-json.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-claude-json-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("Claude Code's ~/.claude.json", () => {
  it('lives in $CLAUDE_CONFIG_DIR when that is set, else in the home folder', () => {
    expect(claudeJsonPath({ CLAUDE_CONFIG_DIR: '/cfg/claude' })).toBe('/cfg/claude/.claude.json');
    expect(claudeJsonPath({})).toMatch(/\/\.claude\.json$/);
  });

  it("finds a folder's entry by its real path when the workspace is opened through a symlink", async () => {
    const real = join(dir, 'project');
    mkdirSync(real);
    symlinkSync(real, join(dir, 'link'));
    const file = join(dir, '.claude.json');
    writeFileSync(
      file,
      JSON.stringify({
        projects: {
          [real]: { mcpServers: { db: { command: 'db-server' } }, disabledMcpServers: ['x', 3] },
        },
      }),
    );
    const read = await readClaudeJsonMcp(file, join(dir, 'link'));
    expect(read).toMatchObject({
      local: { db: { command: 'db-server' } },
      disabled: ['x'],
      user: {},
    });
  });

  it('is read again once Claude Code rewrites it', async () => {
    const file = join(dir, '.claude.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { a: { command: 'a' } } }));
    expect(await readClaudeJsonMcp(file, dir)).toMatchObject({ user: { a: { command: 'a' } } });
    writeFileSync(
      file,
      JSON.stringify({ mcpServers: { a: { command: 'a' }, b: { command: 'bb' } } }),
    );
    expect(await readClaudeJsonMcp(file, dir)).toMatchObject({
      user: { a: { command: 'a' }, b: { command: 'bb' } },
    });
  });

  it('a FIFO, a folder or a file that is not an object is a message, never a wait', async () => {
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    expect(await readClaudeJsonMcp(fifo, dir)).toBe(`${fifo}: not a regular file`);
    expect(await readClaudeJsonMcp(dir, dir)).toBe(`${dir}: not a regular file`);
    const list = join(dir, 'list.json');
    writeFileSync(list, '[]');
    expect(await readClaudeJsonMcp(list, dir)).toBe(`${list}: expected a JSON object`);
    expect(await readClaudeJsonMcp(join(dir, 'missing.json'), dir)).toBeUndefined();
  });
});

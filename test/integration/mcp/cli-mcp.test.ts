/**
 * As a new user would: drop a `.mcp.json` naming a local MCP server, trust the workspace, and
 * `workbench run` uses its tools (the real CLI; only the model is the fake OpenAI server).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../helpers/fake-openai-server.ts';
import { events, runCli, sandbox } from '../../helpers/run-cli.ts';
import { DEMO_MCP_SERVER } from '../../helpers/mcp-http-server.ts';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** `workbench run --auto PROMPT` in a trusted workspace whose `.mcp.json` names the demo server. */
async function runWithDemo(
  call: { name: string; args: Record<string, unknown> },
  prompt: string[],
) {
  const { home, workspace } = await sandbox();
  await writeFile(
    join(workspace, '.mcp.json'),
    JSON.stringify({
      mcpServers: { demo: { command: process.execPath, args: [DEMO_MCP_SERVER] } },
    }),
  );
  fake = await startFakeOpenAi({ script: [{ toolCalls: [call] }, { text: 'done' }] });
  const env = { home, workspace, baseURL: fake.baseURL };
  expect((await runCli(['trust', workspace], env)).code).toBe(0);
  const r = await runCli(['run', '--auto', ...prompt], env, 60_000);
  expect(r.code).toBe(0);
  return r;
}

describe('workbench run with a .mcp.json', () => {
  it('uses the server once the workspace is trusted', async () => {
    const r = await runWithDemo({ name: 'mcp__demo__echo', args: { text: 'from the cli' } }, [
      '--json',
      'use the demo server',
    ]);
    const ends = events(r.stdout).flatMap((e) => (e.event === 'on_tool_end' ? [e] : []));
    expect(ends.map((e) => [e.name, e.data.status, e.data.output])).toEqual([
      ['mcp__demo__echo', 'ok', 'echo: from the cli'],
    ]);
  });

  it('says what a server asked when nobody can answer, and declines it', async () => {
    const r = await runWithDemo({ name: 'mcp__demo__signup', args: {} }, ['sign me up']);
    expect(r.stderr).toContain(
      '? MCP server demo asked: Who is signing up? — declined: nobody can answer here',
    );
    expect(r.stderr).toContain('✓ mcp__demo__signup');
  });
});

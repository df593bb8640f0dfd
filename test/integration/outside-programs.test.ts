/**
 * The files a trusted workspace's hooks and MCP servers run outside the sandbox are guarded as the
 * protected paths are: the agent's file tools need a person to write them and sandboxed commands
 * cannot change them (docs/security.md#programs-your-configuration-runs).
 */
import {
  chmodSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import { detectSandbox } from '../../src/main/tools/sandbox/index.ts';
import { createTrustStore } from '../../src/main/user-hooks/index.ts';
import { createScriptedLlm, type ScriptedTurn } from '../helpers/scripted-llm.ts';
import { DEMO_MCP_SERVER } from '../helpers/mcp-http-server.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const availability = await detectSandbox();
const bwrapUsable = availability.available && availability.engine === 'bubblewrap';

const env = useClaudeSandbox();
let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const GUARD = '#!/bin/sh\ncat > /dev/null\nexit 0\n';
const SERVER = `import ${JSON.stringify(pathToFileURL(DEMO_MCP_SERVER).href)};\n`;

/** A workspace whose Claude Code settings run `scripts/guard.sh` and whose `.mcp.json` runs `mcp/server.mjs`. */
function configure(ws: string): void {
  mkdirSync(join(ws, 'scripts'));
  writeFileSync(join(ws, 'scripts', 'guard.sh'), GUARD);
  chmodSync(join(ws, 'scripts', 'guard.sh'), 0o755);
  mkdirSync(join(ws, 'mcp'));
  writeFileSync(join(ws, 'mcp', 'server.mjs'), SERVER);
  mkdirSync(join(ws, '.claude'));
  writeFileSync(
    join(ws, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/scripts/guard.sh' }] },
        ],
      },
    }),
  );
  writeFileSync(
    join(ws, '.mcp.json'),
    JSON.stringify({
      mcpServers: { demo: { command: process.execPath, args: ['mcp/server.mjs'] } },
    }),
  );
}

/** Runs the calls in `auto` mode with nobody to approve; what the model was told for each. */
async function run(ws: string, calls: ScriptedTurn[]): Promise<string[]> {
  const llm = createScriptedLlm([...calls, { text: 'done' }]);
  wb = await createWorkbench({ home: env.sb.home, workspace: ws, llm, interactive: false });
  await (
    await wb.chat.send({ text: 'go', approvalMode: 'auto' })
  ).finished;
  const last = llm.calls.at(-1)!.request.messages;
  return last.filter((m) => m.role === 'tool').map((m) => String(m.content));
}

const write = (path: string): ScriptedTurn => ({
  toolCalls: [{ name: 'write_file', args: { path, content: 'evil\n' } }],
});

describe("programs a trusted workspace's configuration runs outside the sandbox", () => {
  it('need a person before the file tools write them; other files do not', async () => {
    const ws = env.sb.ws;
    configure(ws);
    await createTrustStore(env.sb.home).trust(ws);
    const told = await run(ws, [
      write('scripts/guard.sh'),
      write('mcp/server.mjs'),
      write('src/app.ts'),
    ]);
    expect(told[0]).toMatch(
      /^Error: not run: scripts\/guard\.sh is run outside the sandbox by a PreToolUse hook \(\.claude\/settings\.json\), so it always needs a person's approval/,
    );
    expect(told[1]).toMatch(
      /mcp\/server\.mjs is run outside the sandbox by MCP server "demo" \(\.mcp\.json\)/,
    );
    expect(told[2]).not.toMatch(/not run/);
    expect(readFileSync(join(ws, 'scripts', 'guard.sh'), 'utf8')).toBe(GUARD);
    expect(readFileSync(join(ws, 'mcp', 'server.mjs'), 'utf8')).toBe(SERVER);
    expect(readFileSync(join(ws, 'src', 'app.ts'), 'utf8')).toBe('evil\n');
  });

  it('are free to write while the workspace is not trusted: nothing runs them', async () => {
    const ws = env.sb.ws;
    configure(ws);
    const told = await run(ws, [write('scripts/guard.sh')]);
    expect(told[0]).not.toMatch(/not run/);
    expect(readFileSync(join(ws, 'scripts', 'guard.sh'), 'utf8')).toBe('evil\n');
  });

  it.skipIf(!bwrapUsable)('cannot be changed by a sandboxed command', async () => {
    const ws = env.sb.ws;
    configure(ws);
    await createTrustStore(env.sb.home).trust(ws);
    const told = await run(ws, [
      {
        toolCalls: [
          {
            name: 'execute',
            args: {
              command:
                'echo evil >> scripts/guard.sh; echo evil >> mcp/server.mjs; rm -f scripts/guard.sh; echo fine > notes.txt',
            },
          },
        ],
      },
    ]);
    expect(told[0]).toMatch(/command sandboxed/);
    expect(readFileSync(join(ws, 'scripts', 'guard.sh'), 'utf8')).toBe(GUARD);
    expect(readFileSync(join(ws, 'mcp', 'server.mjs'), 'utf8')).toBe(SERVER);
    expect(readFileSync(join(ws, 'notes.txt'), 'utf8')).toBe('fine\n');
  });

  it.skipIf(!bwrapUsable)(
    'named through a link: a sandboxed command that replaces the link finds it put back',
    async () => {
      const ws = env.sb.ws;
      configure(ws);
      mkdirSync(join(ws, 'tools'));
      renameSync(join(ws, 'scripts', 'guard.sh'), join(ws, 'tools', 'guard.sh'));
      symlinkSync('../tools/guard.sh', join(ws, 'scripts', 'guard.sh'));
      await createTrustStore(env.sb.home).trust(ws);
      const told = await run(ws, [
        {
          toolCalls: [
            {
              name: 'execute',
              args: { command: 'rm scripts/guard.sh; echo evil > scripts/guard.sh; echo tried' },
            },
          ],
        },
      ]);
      expect(told[0]).toMatch(
        /the command replaced scripts\/guard\.sh, a link to \.\.\/tools\/guard\.sh the sandbox keeps; it was put back/,
      );
      expect(readlinkSync(join(ws, 'scripts', 'guard.sh'))).toBe('../tools/guard.sh');
      expect(readFileSync(join(ws, 'tools', 'guard.sh'), 'utf8')).toBe(GUARD);
    },
  );
});

/**
 * Claude Code `mcp_tool` handlers in a whole run: a tool of an MCP server the workbench connected is
 * called with the hook's input filled into `input`, its text read as a command's stdout (a deny
 * refuses the call), a tool error or a server that is not there is a non-blocking error.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_MCP_SERVER } from '../helpers/mcp-http-server.ts';
import { createScriptedLlm } from '../helpers/scripted-llm.ts';
import {
  hookEnds,
  runCommand,
  toolEnds,
  useScriptedWorkbench,
} from '../helpers/scripted-workbench.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
const scripted = useScriptedWorkbench(env);

/** The demo server from the workbench's own settings, and Claude settings holding `hooks`. */
function configure(hooks: object): void {
  const demo = { command: process.execPath, args: [DEMO_MCP_SERVER] };
  writeFileSync(join(env.sb.home, 'settings.json'), JSON.stringify({ mcp_servers: { demo } }));
  writeFileSync(join(env.claudeDir, 'settings.json'), JSON.stringify({ hooks }));
}

describe('Claude Code mcp_tool handlers', () => {
  it("deny a call from the tool's answer, the hook's input filled into the tool's input", async () => {
    configure({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'mcp_tool',
              server: 'demo',
              tool: 'guard',
              input: { command: '${tool_input.command}', cwd: '${cwd}' },
            },
          ],
        },
      ],
    });
    const { events } = await scripted.run([
      runCommand('rm -rf build'),
      runCommand('echo fine'),
      { text: 'done' },
    ]);
    const [denied, allowed] = toolEnds(events);
    expect(denied?.error).toBe(
      `blocked by hook mcp: demo › guard: guard refuses "rm -rf build" in ${env.sb.ws}`,
    );
    expect(allowed?.error).toBeUndefined();
    expect(allowed?.output).toContain('fine');
  });

  it('let the run go on when the tool fails or the server offers no such tool, and say so', async () => {
    configure({
      PreToolUse: [
        {
          hooks: [
            { type: 'mcp_tool', server: 'demo', tool: 'fail', input: { kind: 'discard' } },
            { type: 'mcp_tool', server: 'nowhere', tool: 'guard' },
          ],
        },
      ],
    });
    const { events } = await scripted.run([runCommand('echo still runs'), { text: 'done' }]);
    expect(toolEnds(events)[0]?.error).toBeUndefined();
    const reasons = hookEnds(events).map((h) => ({ ok: h.ok, reason: h.reason }));
    expect(reasons).toEqual(
      expect.arrayContaining([
        { ok: false, reason: 'mcp__demo__fail answered with an error: failed (discard)' },
        {
          ok: false,
          reason:
            'MCP server "nowhere" offers no tool "guard" here (not configured, not trusted, switched off or not connected)',
        },
      ]),
    );
  });

  it('give SessionStart context from a server the run is still starting', async () => {
    configure({
      SessionStart: [
        {
          hooks: [
            {
              type: 'mcp_tool',
              server: 'demo',
              tool: 'echo',
              input: { text: 'a ${source} session' },
            },
          ],
        },
      ],
    });
    const { llm } = await scripted.run([{ text: 'done' }]);
    expect(llm.calls[0]!.request.system.join('\n')).toContain('echo: a startup session');
  });

  it('is tried from the hooks panel against the same server', async () => {
    configure({
      PreToolUse: [
        {
          hooks: [
            {
              type: 'mcp_tool',
              server: 'demo',
              tool: 'guard',
              input: { command: '${tool_input.command}', cwd: 'panel' },
            },
          ],
        },
      ],
    });
    const wb = await scripted.open(createScriptedLlm([]));
    const id = `claude:${join(env.claudeDir, 'settings.json')}#PreToolUse/0/0`;
    const payload = JSON.stringify({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf /' },
    });
    const r = await wb.hooks!.test({ workspace: env.sb.ws, id, event: 'PreToolUse', payload });
    expect(r).toMatchObject({
      decision: 'deny',
      readAs: 'deny — guard refuses "rm -rf /" in panel',
    });
  });
});

/**
 * Claude Code handlers with `async` / `asyncRewake` in a whole run: they never hold the agent, what
 * they say for the model reaches its later requests, and the run's end waits for them.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import type { ModelRequest } from '../../src/main/llm/types.ts';
import { createScriptedLlm } from '../helpers/scripted-llm.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const run = (command: string) => ({ toolCalls: [{ name: 'execute', args: { command } }] });
const backgroundContext = (req: ModelRequest) =>
  req.system.find((b) => b.startsWith('<background_hook_context>'));

describe('Claude Code background handlers', () => {
  it('never hold the agent; their context joins a later request; the run ends once they are done', async () => {
    const marks = join(env.sb.home, '..', 'marks');
    mkdirSync(marks);
    const lint = join(env.sb.home, '..', 'lint.sh');
    // Each run leaves a mark named after its tool call once it has answered.
    writeFileSync(
      lint,
      `#!/bin/sh\nid=$(sed 's/.*"tool_use_id":"\\([^"]*\\)".*/\\1/')\nsleep 0.4\nprintf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 2 warnings"}}'\ntouch '${marks}'/"$id"\n`,
      { mode: 0o755 },
    );
    const rewake = join(env.sb.home, '..', 'tests.sh');
    writeFileSync(
      rewake,
      '#!/bin/sh\ncat >/dev/null\nsleep 0.2\necho "2 tests failed" >&2\nexit 2\n',
      {
        mode: 0o755,
      },
    );
    writeFileSync(
      join(env.claudeDir, 'settings.json'),
      JSON.stringify({
        hooks: {
          PostToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                { type: 'command', command: lint, async: true },
                { type: 'command', command: rewake, asyncRewake: true },
              ],
            },
          ],
        },
      }),
    );
    const markedAtRequest: number[] = [];
    const seen = (turn: object) => () => {
      markedAtRequest.push(existsSync(marks) ? readdirSync(marks).length : 0);
      return turn;
    };
    const llm = createScriptedLlm([run('echo one'), seen(run('sleep 1')), seen({ text: 'done' })]);
    wb = await createWorkbench({
      home: env.sb.home,
      workspace: env.sb.ws,
      llm,
      interactive: false,
    });
    const handle = await wb.chat.send({ text: 'go', approvalMode: 'auto' });
    await handle.finished;

    // The request right after the first call went out before its lint hook answered.
    expect(markedAtRequest[0]).toBe(0);
    expect(backgroundContext(llm.calls[1]!.request)).toBeUndefined();
    // By the third request it had: its words, and the rewake handler's exit-2 reason, are there.
    expect(backgroundContext(llm.calls[2]!.request)).toBe(
      [
        '<background_hook_context>',
        '[PostToolUse hook tests.sh] 2 tests failed',
        '[PostToolUse hook lint.sh] lint: 2 warnings',
        '</background_hook_context>',
      ].join('\n'),
    );
    // The calls were not blocked by the exit 2.
    const last = llm.calls[2]!.request.messages.filter((m) => m.role === 'tool');
    expect(last.map((m) => String(m.content).startsWith('Error'))).toEqual([false, false]);
    // The run ended only after the second call's lint hook answered too.
    expect(readdirSync(marks)).toHaveLength(2);
    const runs = wb.hooks!.runs({});
    expect(runs.filter((r) => r.hook_name === 'lint.sh')).toHaveLength(2);
  });

  it('list a bad async value, or async on an http handler, as a problem', async () => {
    writeFileSync(
      join(env.claudeDir, 'settings.json'),
      JSON.stringify({
        hooks: {
          PostToolUse: [
            {
              hooks: [
                { type: 'command', command: 'true', async: 'yes' },
                { type: 'http', url: 'http://127.0.0.1:9/x', async: true },
              ],
            },
          ],
        },
      }),
    );
    wb = await createWorkbench({
      home: env.sb.home,
      workspace: env.sb.ws,
      llm: createScriptedLlm([]),
    });
    const listed = (await wb.hooks!.list({ workspace: env.sb.ws })).hooks;
    expect(listed.filter((h) => h.dialect === 'claude').map((h) => h.problem)).toEqual([
      '"async" must be true or false',
      '"async" is for command handlers',
    ]);
  });
});

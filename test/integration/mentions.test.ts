/**
 * A person's `@` mentions in a whole run: read before the model's first turn through the same tools,
 * hooks and rules as the model's calls, stored in the thread, and refused where the model would be
 * refused — a deny rule, a path outside the workspace, a symlink out of it (docs/tools.md#mentions).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import type { Message, StreamEvent } from '../../src/shared/types/index.ts';
import { createScriptedLlm } from '../helpers/scripted-llm.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

/** Sends `text`; returns the model's one request's messages, the events and the stored thread. */
async function send(text: string) {
  const llm = createScriptedLlm([{ text: 'done' }]);
  wb = await createWorkbench({ home: env.sb.home, workspace: env.sb.ws, llm, interactive: false });
  const events: StreamEvent[] = [];
  wb.subscribe((e) => events.push(e));
  const handle = await wb.chat.send({ text, approvalMode: 'ask' });
  await handle.finished;
  const thread = wb.threads.get({ threadId: handle.threadId })!;
  return { sent: llm.calls[0]!.request.messages as Message[], events, stored: thread.messages };
}
const toolMessages = (messages: Message[]) => messages.filter((m) => m.role === 'tool');

describe('@ mentions', () => {
  it('reads a mentioned file and folder before the first turn, as stored turns the model and the chat see', async () => {
    mkdirSync(join(env.sb.ws, 'src'));
    writeFileSync(join(env.sb.ws, 'src', 'app.ts'), 'export const answer = 42;\n');
    const { sent, events, stored } = await send('why @src/app.ts? see @src and ask @alice');
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(sent[0]!.content).toBe('why @src/app.ts? see @src and ask @alice');
    expect(sent[1]!.tool_calls!.map((c) => [c.name, c.args])).toEqual([
      ['read_file', { path: 'src/app.ts' }],
      ['ls', { path: 'src' }],
    ]);
    const [file, folder] = toolMessages(sent);
    expect(file!.content).toBe('     1\texport const answer = 42;');
    expect(JSON.parse(folder!.content)).toEqual([{ name: 'app.ts', type: 'file', size: 26 }]);
    // The chat shows them as tool cards (the person's); the thread keeps them for the next turn.
    const ends = events.filter((e) => e.event === 'on_tool_end');
    expect(ends.map((e) => e.event === 'on_tool_end' && e.data.status)).toEqual(['ok', 'ok']);
    expect(stored.slice(0, 4)).toEqual(sent);
  });

  it('refuses what the model would be refused: a deny rule, a path outside, a symlink out, a FIFO — and nothing of them is sent', async () => {
    writeFileSync(join(env.sb.ws, '.env'), 'TOKEN=secret-in-env\n');
    writeFileSync(join(env.sb.home, '..', 'outside.txt'), 'secret-outside\n');
    symlinkSync(join(env.sb.home, '..', 'outside.txt'), join(env.sb.ws, 'link.txt'));
    writeFileSync(
      join(env.claudeDir, 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Read(./.env)'] } }),
    );
    execFileSync('mkfifo', [join(env.sb.ws, 'pipe')]);
    const { sent } = await send('look at @.env @../outside.txt @link.txt @pipe');
    const told = toolMessages(sent).map((m) => m.content);
    expect(told).toHaveLength(4);
    expect(told[0]).toBe(
      `Error: denied by your permission rule Read(./.env) (${join(env.claudeDir, 'settings.json')})`,
    );
    expect(told[1]).toBe('Error: path outside workspace');
    expect(told[2]).toBe('Error: path outside workspace');
    // A FIFO is refused before anything waits on it: the run goes on.
    expect(told[3]).toBe(
      'Error: refusing to open pipe: it is a named pipe (FIFO), not a regular file',
    );
    expect(JSON.stringify(sent)).not.toMatch(/secret-in-env|secret-outside/);
  });

  it("reads nothing with a tool the agent's profile keeps from it", async () => {
    writeFileSync(join(env.sb.ws, 'plan.md'), 'the plan\n');
    mkdirSync(join(env.sb.ws, '.workbench'), { recursive: true });
    writeFileSync(join(env.sb.ws, '.workbench', 'agent.yaml'), 'tools: [ls]\n');
    const { sent } = await send('follow @plan.md in @.workbench/');
    expect(sent[1]!.tool_calls!.map((c) => c.name)).toEqual(['ls']);
    expect(JSON.stringify(sent)).not.toContain('the plan');
  });

  it('a PreToolUse hook sees a mention read as Claude Code’s Read and can block it', async () => {
    writeFileSync(join(env.sb.ws, 'plan.md'), 'the plan\n');
    writeFileSync(
      join(env.claudeDir, 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: 'Read',
              hooks: [
                { type: 'command', command: "cat >/dev/null; echo 'no reading today' >&2; exit 2" },
              ],
            },
          ],
        },
      }),
    );
    const { sent } = await send('follow @plan.md');
    expect(toolMessages(sent)[0]!.content).toMatch(/no reading today/);
    expect(JSON.stringify(sent)).not.toContain('the plan');
  });
});

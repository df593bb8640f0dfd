/**
 * Claude Code `prompt` handlers in a whole run: the model judges the hook's input and its
 * `{"ok": false}` is the event's own block — a denied call, an agent kept working — while an answer
 * that is not such JSON lets the run go on, the failure shown on the hook run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScriptedLlm, type ScriptedTurn } from '../helpers/scripted-llm.ts';
import { runCommand, toolEnds, useScriptedWorkbench } from '../helpers/scripted-workbench.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
const scripted = useScriptedWorkbench(env);

function writeHooks(hooks: object): void {
  writeFileSync(join(env.claudeDir, 'settings.json'), JSON.stringify({ hooks }));
}

const runScript = (script: ScriptedTurn[]) => scripted.run(script);

describe('Claude Code prompt handlers', () => {
  it("deny a tool call when the model says no, asking the handler's model with the input in place of $ARGUMENTS", async () => {
    writeHooks({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'prompt',
              prompt: 'Refuse network downloads. Event: $ARGUMENTS',
              model: 'judge-model',
            },
          ],
        },
      ],
    });
    const { llm, events } = await runScript([
      runCommand('curl -sO https://example.com/tool.tgz'),
      { text: '```json\n{"ok": false, "reason": "downloads are not allowed here"}\n```' },
      runCommand('echo fine'),
      { text: '{"ok": true}' },
      { text: 'done' },
    ]);
    const [denied, allowed] = toolEnds(events);
    expect(denied?.error).toBe(
      'blocked by hook prompt: Refuse network downloads. Event: $ARGUME: downloads are not allowed here',
    );
    expect(allowed?.error).toBeUndefined();
    const question = llm.calls[1]!.request;
    expect(question.model).toBe('judge-model');
    expect(question.tools).toEqual([]);
    const asked = String(question.messages[0]!.content);
    expect(asked.startsWith('Refuse network downloads. Event: {')).toBe(true);
    expect(JSON.parse(asked.slice('Refuse network downloads. Event: '.length))).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'curl -sO https://example.com/tool.tgz' },
    });
  });

  it('keep the agent working on a Stop "no", with the reason as its next message, and let it stop on "ok"', async () => {
    writeHooks({ Stop: [{ hooks: [{ type: 'prompt', prompt: 'Did the agent run the tests?' }] }] });
    const { llm } = await runScript([
      { text: 'all done' },
      { text: '{"ok": false, "reason": "run npm test before stopping"}' },
      { text: 'tests pass now' },
      { text: '{"ok": true}' },
    ]);
    // The run's own model judged it, with the input appended to a prompt without $ARGUMENTS.
    expect(llm.calls[1]!.request.model).toBe(llm.calls[0]!.request.model);
    expect(String(llm.calls[1]!.request.messages[0]!.content)).toMatch(
      /^Did the agent run the tests\?\n\n\{.*"hook_event_name":"Stop"/s,
    );
    const followUp = llm.calls[2]!.request.messages.at(-1)!;
    expect(followUp).toMatchObject({ role: 'user', content: 'run npm test before stopping' });
  });

  it('let the call go on when the answer is not a verdict, and say so on the hook run', async () => {
    writeHooks({ PreToolUse: [{ hooks: [{ type: 'prompt', prompt: 'Is this safe?' }] }] });
    const { events } = await runScript([
      runCommand('echo hi'),
      { text: 'Sure, looks safe to me!' },
      { text: 'done' },
    ]);
    expect(toolEnds(events)[0]?.error).toBeUndefined();
    const hookEnd = events.find((e) => e.event === 'on_hook_end');
    expect(hookEnd?.event === 'on_hook_end' && hookEnd.data).toMatchObject({
      ok: false,
      reason: 'the model did not answer with a JSON object',
    });
  });

  it("is tried from the hooks panel with the workbench's model, and the run is recorded", async () => {
    writeHooks({ PreToolUse: [{ hooks: [{ type: 'prompt', prompt: 'No sudo. $ARGUMENTS' }] }] });
    const llm = createScriptedLlm([{ text: '{"ok": false, "reason": "sudo is not allowed"}' }]);
    const wb = await scripted.open(llm);
    const id = `claude:${join(env.claudeDir, 'settings.json')}#PreToolUse/0/0`;
    const r = await wb.hooks!.test({ workspace: env.sb.ws, id, event: 'PreToolUse' });
    expect(r).toMatchObject({ decision: 'deny', readAs: 'deny — sudo is not allowed' });
    expect(String(llm.calls[0]!.request.messages[0]!.content)).toMatch(/^No sudo\. \{/);
    expect(wb.hooks!.runs({ hookId: id })[0]).toMatchObject({ decision: 'deny' });
  });
});

/**
 * Claude Code's PostToolBatch: once a turn's tool calls have all resolved, its handlers see every
 * call with its response or error; what they add reaches the model with the results, and a block
 * ends the run before the next model call.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedWorkbench } from '../helpers/scripted-workbench.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
const scripted = useScriptedWorkbench(env);

function batchHook(command: string): void {
  writeFileSync(
    join(env.claudeDir, 'settings.json'),
    JSON.stringify({ hooks: { PostToolBatch: [{ hooks: [{ command }] }] } }),
  );
}

const twoCalls = {
  toolCalls: [
    { name: 'execute', args: { command: 'echo one' } },
    { name: 'read_file', args: { path: 'missing.txt' } },
  ],
};

describe('PostToolBatch', () => {
  it('sees the whole batch once, and its context reaches the model with the results', async () => {
    const kept = join(env.sb.home, '..', 'batch.json');
    const answer = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PostToolBatch', additionalContext: 'lint: 2 warnings' },
    });
    batchHook(`cat > '${kept}'; printf '%s' '${answer}'`);
    const { llm } = await scripted.run([twoCalls, { text: 'done' }]);
    const input = JSON.parse(readFileSync(kept, 'utf8')) as {
      tool_calls: Record<string, unknown>[];
    };
    expect(input).toMatchObject({ hook_event_name: 'PostToolBatch' });
    expect(input.tool_calls).toHaveLength(2);
    expect(input.tool_calls[0]).toMatchObject({
      tool_name: 'Bash',
      tool_input: { command: 'echo one' },
      tool_response: { stdout: expect.stringContaining('one') },
    });
    expect(input.tool_calls[1]).toMatchObject({ tool_name: 'Read', error: expect.any(String) });
    const results = llm.calls[1]!.request.messages.filter((m) => m.role === 'tool');
    expect(String(results.at(-1)!.content)).toMatch(
      /<hook_feedback>\nlint: 2 warnings\n<\/hook_feedback>$/,
    );
    expect(String(results[0]!.content)).not.toContain('hook_feedback');
  });

  it('ends the run before the next model call on a block, and says why', async () => {
    batchHook("echo 'CI is red: stop here' >&2; exit 2");
    const { events } = await scripted.run([twoCalls]);
    const done = events.find((e) => e.event === 'done');
    expect(done?.event === 'done' && done.data.stop_reason).toBe('blocked');
    const notice = events.find((e) => e.event === 'on_hook_message');
    expect(notice?.event === 'on_hook_message' && notice.data).toMatchObject({
      event: 'PostToolBatch',
      kind: 'stop',
      message: 'CI is red: stop here',
    });
  });
});

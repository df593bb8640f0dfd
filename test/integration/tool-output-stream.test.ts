/**
 * A command's output reaches the event stream while it runs, stdout and stderr apart and tagged with
 * its call, before the call ends; the model still gets the combined output.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import type { StreamEvent } from '../../src/shared/types/index.ts';
import { createScriptedLlm } from '../helpers/scripted-llm.ts';
import { sandbox, type Sandbox } from '../unit/user-hooks/helpers.ts';

let sb: Sandbox;
let wb: Workbench | undefined;
beforeEach(() => {
  sb = sandbox();
});
afterEach(async () => {
  await wb?.close();
  sb.cleanup();
});

it('streams on_tool_output events per stream before on_tool_end', async () => {
  const llm = createScriptedLlm([
    {
      toolCalls: [
        {
          id: 'c1',
          name: 'execute',
          args: { command: 'echo out-1; echo err-1 >&2; sleep 0.3; echo out-2' },
        },
      ],
    },
    { text: 'done' },
  ]);
  wb = await createWorkbench({ home: sb.home, workspace: sb.ws, llm, interactive: false });
  const events: StreamEvent[] = [];
  wb.subscribe((e) => events.push(e));
  await (
    await wb.chat.send({ text: 'run it', approvalMode: 'auto' })
  ).finished;
  const outputs = events.flatMap((e) => (e.event === 'on_tool_output' ? [e.data] : []));
  expect(outputs.every((o) => o.tool_call_id === 'c1')).toBe(true);
  const joined = (s: string) =>
    outputs
      .filter((o) => o.stream === s)
      .map((o) => o.chunk)
      .join('');
  expect(joined('stdout')).toBe('out-1\nout-2\n');
  expect(joined('stderr')).toBe('err-1\n');
  const end = events.findIndex((e) => e.event === 'on_tool_end');
  const lastOutput = events.findLastIndex((e) => e.event === 'on_tool_output');
  expect(lastOutput).toBeLessThan(end);
  const toolMessage = wb.threads
    .get({ threadId: events[0]!.thread_id })!
    .messages.find((m) => m.role === 'tool')!;
  expect(toolMessage.content).toContain('out-1\nerr-1\nout-2');
});

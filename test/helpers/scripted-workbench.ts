/** A workbench over a test's sandbox, answered by a scripted model, closed after each test. */
import { afterEach } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { Workbench, WorkbenchOptions } from '../../src/main/api/types.ts';
import type { StreamEvent } from '../../src/shared/types/index.ts';
import { createScriptedLlm, type ScriptedLlm, type ScriptedTurn } from './scripted-llm.ts';

export interface ScriptedWorkbench {
  /** The workbench opened last (throws before one was opened). */
  readonly wb: Workbench;
  /** Opens a non-interactive workbench over the sandbox with `llm` as its model (and `more` options), closing the one before. */
  open(llm: ScriptedLlm, more?: Partial<WorkbenchOptions>): Promise<Workbench>;
  /** Sends "go" in auto mode, answered by `script` to its end; its model calls and every event. */
  run(script: ScriptedTurn[]): Promise<{ llm: ScriptedLlm; events: StreamEvent[] }>;
}

export function useScriptedWorkbench(env: {
  readonly sb: { home: string; ws: string };
}): ScriptedWorkbench {
  let current: Workbench | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const open = async (llm: ScriptedLlm, more: Partial<WorkbenchOptions> = {}) => {
    // One workbench at a time: the one opened before is closed.
    await current?.close();
    current = await createWorkbench({
      home: env.sb.home,
      workspace: env.sb.ws,
      llm,
      interactive: false,
      ...more,
    });
    return current;
  };
  return {
    get wb() {
      if (!current) throw new Error('no workbench opened yet');
      return current;
    },
    open,
    async run(script) {
      const llm = createScriptedLlm(script);
      const wb = await open(llm);
      const events: StreamEvent[] = [];
      wb.subscribe((e) => events.push(e));
      await (
        await wb.chat.send({ text: 'go', approvalMode: 'auto' })
      ).finished;
      llm.assertComplete();
      return { llm, events };
    },
  };
}

/** The `on_tool_end` data of a run's events, in order. */
export const toolEnds = (events: StreamEvent[]) =>
  events.flatMap((e) => (e.event === 'on_tool_end' ? [e.data] : []));

/** The `on_hook_end` data of a run's events, in order. */
export const hookEnds = (events: StreamEvent[]) =>
  events.flatMap((e) => (e.event === 'on_hook_end' ? [e.data] : []));

/** A model turn calling `execute` with `command`. */
export const runCommand = (command: string): ScriptedTurn => ({
  toolCalls: [{ name: 'execute', args: { command } }],
});

/** The subagents middleware: gives the agent the `task` tool when it may start subagents (docs/agents.md). */
import type { Hook, MiddlewareInfo } from '../pipeline/hook.ts';
import { createTaskTool } from '../tools/task.ts';

export const subagentsInfo: MiddlewareInfo = {
  name: 'subagents',
  description: 'Gives the agent the task tool, which runs a subagent profile on a child thread',
  phases: ['before_agent'],
};

/**
 * Creates the subagents hook.
 * Contract: registers `task` only when the run can start subagents (`ctx.runSubagent`, absent at
 * the depth limit) and at least one subagent exists.
 */
export function createSubagentsHook(
  agents: ReadonlyArray<{ name: string; description: string }>,
): Hook {
  return {
    name: subagentsInfo.name,
    source: 'builtin',
    description: subagentsInfo.description,
    async beforeAgent(ctx) {
      const runSubagent = ctx.runSubagent;
      if (!runSubagent || agents.length === 0) return;
      ctx.tools.register(
        createTaskTool({
          agents,
          run: (args, callId) =>
            runSubagent({
              agent: args.subagent_type,
              messages: [{ role: 'user', content: args.description }],
              parentToolCallId: callId,
              description: args.description,
            }),
        }),
      );
    },
  };
}

/** The `task` tool (docs/agents.md): hands a piece of work to a named subagent and returns its final answer. */
import { z } from 'zod';
import type { SubagentResult } from '../agents/subagent-types.ts';
import { ToolError, defineTool, type Tool } from './types.ts';

export interface TaskToolOptions {
  /** The subagents the model may call, with the line saying when to use each. */
  agents: ReadonlyArray<{ name: string; description: string }>;
  /** Runs the subagent on a child thread; `callId` links it to this call. */
  run(
    args: { subagent_type: string; description: string },
    callId: string,
  ): Promise<SubagentResult>;
}

/**
 * Creates `task`.
 * Contract: an unknown `subagent_type` is an error naming the available ones; the result is the
 * subagent's final answer; a subagent that failed is an error, one that was stopped is `cancelled`.
 */
export function createTaskTool(opts: TaskToolOptions): Tool {
  const names = opts.agents.map((a) => a.name);
  const list = opts.agents
    .map((a) => `- ${a.name}: ${a.description || '(no description)'}`)
    .join('\n');
  return defineTool({
    name: 'task',
    description:
      'Hand a self-contained piece of work to a subagent. It starts with a fresh context (only your description), ' +
      'works with its own tools, and its final answer is returned to you. Call several at once to run them in parallel. ' +
      `Available subagents:\n${list}`,
    parameters: z.object({
      subagent_type: z.string().describe(`The subagent to use: one of ${names.join(', ')}`),
      description: z
        .string()
        .min(1)
        .describe(
          'The complete task for the subagent: what to do, what to return, everything it needs to know',
        ),
    }),
    // The call itself changes nothing; each of the subagent's own calls passes approval.
    effects: () => ({}),
    preview: (args) => `task → ${args.subagent_type}: ${args.description}`,
    async execute(args, ctx) {
      if (!names.includes(args.subagent_type)) {
        throw new ToolError(
          `unknown subagent "${args.subagent_type}". Available: ${names.join(', ')}`,
          'discard',
        );
      }
      const result = await opts.run(args, ctx.callId);
      if (result.status === 'error')
        throw new ToolError(
          `subagent ${args.subagent_type} failed: ${result.error ?? 'unknown error'}`,
          'discard',
        );
      if (result.status === 'cancelled')
        return {
          content: result.content || `subagent ${args.subagent_type} was stopped`,
          status: 'cancelled',
        };
      return result.content;
    },
  });
}

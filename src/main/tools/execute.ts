/** The `execute` tool: a shell command in the workspace root, in its own process group, with a deadline. */
import { z } from 'zod';
import { EXECUTE_TIMEOUT_MS } from '../../shared/constants.ts';
import { defineTool, type Tool, type ToolOutput } from './types.ts';
import { runInProcessGroup, type GroupRunResult } from './process-group.ts';
import { safeChildEnv } from '../env/child-env.ts';

const MAX_TIMEOUT_SECONDS = 3600;

const params = z.object({
  command: z
    .string()
    .min(1, 'command must not be empty')
    .describe('Shell command to run in the workspace root'),
  timeout_seconds: z
    .number()
    .positive()
    .max(MAX_TIMEOUT_SECONDS)
    .optional()
    .describe(`Seconds before the command is killed (default ${EXECUTE_TIMEOUT_MS / 1000})`),
});

/** Options of the execute tool. */
export interface ExecuteToolOptions {
  /** Between SIGTERM and SIGKILL of the group (default 2000 ms). */
  killGraceMs?: number;
  /** Bytes kept from the start and from the end of the output (default 38 KB each). */
  keepBytes?: number;
}

/**
 * Creates `execute`.
 * Contract: a non-zero exit, a timeout or a cancel is a normal result ending in a status line
 * (`exit code: N`, `killed by signal S`, `timed out after Ns`, `cancelled`); stdin is closed; the child
 * environment is an allowlist without secrets; the whole process group is killed on timeout or abort.
 */
export function createExecuteTool(opts: ExecuteToolOptions = {}): Tool {
  return defineTool({
    name: 'execute',
    description:
      'Run a shell command in the workspace root and return its combined stdout and stderr and exit code. ' +
      'stdin is closed (no interactive input). Long outputs keep their beginning and end.',
    parameters: params,
    effects: (args) => ({ executes: args.command }),
    preview: (args) => `$ ${args.command}`,
    dialects: {
      // Claude's Bash timeout is in milliseconds, Kodelet's in seconds.
      claude: {
        name: 'Bash',
        toInput: ({ timeout_seconds: s, ...rest }) => ({ ...rest, ...(typeof s === 'number' ? { timeout: s * 1000 } : {}) }),
        fromInput: ({ timeout: ms, description: _d, ...rest }) => ({ ...rest, ...(typeof ms === 'number' ? { timeout_seconds: ms / 1000 } : {}) }),
        toResponse: ({ output, status }) => ({ stdout: output, stderr: '', interrupted: status === 'timeout' || status === 'cancelled', isImage: false }),
      },
      kodelet: {
        name: 'bash',
        args: { timeout_seconds: 'timeout' },
        fromInput: ({ description: _d, ...rest }) => rest,
        toResponse: ({ args, output, absolute }) => ({ command: args.command, exitCode: Number(/exit code: (-?\d+)/.exec(output)?.[1] ?? -1), output, workingDir: absolute('.') }),
      },
    },
    async execute({ command, timeout_seconds: timeoutSeconds }, ctx): Promise<ToolOutput> {
      const timeoutMs = timeoutSeconds !== undefined ? timeoutSeconds * 1000 : EXECUTE_TIMEOUT_MS;
      const cwd = await ctx.workspace.resolve('.', 'write');
      const result = await runInProcessGroup({
        command,
        cwd,
        env: safeChildEnv({ ...ctx.env, PWD: cwd }),
        timeoutMs,
        signal: ctx.signal,
        killGraceMs: opts.killGraceMs,
        headBytes: opts.keepBytes,
        tailBytes: opts.keepBytes,
      });
      const status = result.timedOut ? 'timeout' : result.cancelled ? 'cancelled' : 'ok';
      return { content: formatResult(result, timeoutMs), status };
    },
  });
}

/** The text the model sees for a finished command. */
function formatResult(r: GroupRunResult, timeoutMs: number): string {
  let status: string;
  if (r.cancelled) status = 'cancelled';
  else if (r.timedOut) status = `timed out after ${Math.round(timeoutMs / 100) / 10}s`;
  else if (r.signal) status = `killed by signal ${r.signal}`;
  else status = `exit code: ${r.exitCode ?? -1}`;
  const notes: string[] = [];
  if (r.killedSurvivors && !r.timedOut && !r.cancelled)
    notes.push('background processes left by the command were stopped');
  const output = r.output.length > 0 ? r.output.replace(/\n$/, '') : '(no output)';
  return [output, '', status, ...notes].join('\n');
}

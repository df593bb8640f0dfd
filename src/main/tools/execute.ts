/**
 * The `execute` tool: a shell command in the workspace root, in its own process group, with a
 * deadline; inside the OS sandbox when the settings and the machine allow (docs/tools.md#sandbox).
 */
import os from 'node:os';
import { z } from 'zod';
import { EXECUTE_TIMEOUT_MS } from '../../shared/constants.ts';
import type { SandboxSettings } from '../../shared/types/index.ts';
import { defineTool, ToolError, type Tool, type ToolOutput } from './types.ts';
import { defaultShell, runInProcessGroup, type GroupRunResult } from './process-group.ts';
import { createLiveOutput } from './live-output.ts';
import { terminalText } from './terminal-text.ts';
import { safeChildEnv } from '../env/child-env.ts';
import type { CommandSnapshotter } from '../checkpoints/command-snapshot.ts';
import {
  commandSandbox,
  describeCommandSandbox,
  detectSandbox,
  takeNetworkGrant,
  wrapCommand,
  sandboxPaths,
  type CommandSandbox,
  type SandboxAvailability,
} from './sandbox/index.ts';
import { seconds } from '../seconds.ts';

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

/** Where and how commands are sandboxed. */
export interface ExecuteSandboxOptions {
  settings: SandboxSettings;
  /** $WORKBENCH_HOME, hidden from commands. */
  workbenchHome: string;
  /** The user's home folder whose secrets are hidden (default os.homedir()). */
  home?: string;
  /** Whether this machine can sandbox (default: the cached probe). */
  detect?: () => Promise<SandboxAvailability>;
}

/** Options of the execute tool. */
export interface ExecuteToolOptions {
  /** Between SIGTERM and SIGKILL of the group (default 2000 ms). */
  killGraceMs?: number;
  /** Bytes kept from the start and from the end of the output (default 38 KB each). */
  keepBytes?: number;
  /** Without it commands run unsandboxed and the result does not mention a sandbox. */
  sandbox?: ExecuteSandboxOptions;
  /** Snapshots the workspace before and after each command, for revert (docs/tools.md#checkpoints). */
  snapshot?: CommandSnapshotter;
}

/**
 * Creates `execute`.
 * Contract: a non-zero exit, a timeout or a cancel is a normal result ending in a status line
 * (`exit code: N`, `killed by signal S`, `timed out after Ns`, `cancelled`), followed by a line saying
 * whether it ran sandboxed when `opts.sandbox` is given; output is sent to `ctx.onOutput` while
 * the command runs (batched, bounded) and stdout/stderr come back apart in `streams`; a command the settings refuse to run
 * without a sandbox throws a ToolError naming why; stdin is closed; the child environment is an
 * allowlist without secrets; the whole process group is killed on timeout or abort.
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
        toInput: ({ timeout_seconds: s, ...rest }) => ({
          ...rest,
          ...(typeof s === 'number' ? { timeout: s * 1000 } : {}),
        }),
        fromInput: ({ timeout: ms, description: _d, ...rest }) => ({
          ...rest,
          ...(typeof ms === 'number' ? { timeout_seconds: ms / 1000 } : {}),
        }),
        toResponse: ({ output, status, streams }) => ({
          stdout: streams?.stdout ?? output,
          stderr: streams?.stderr ?? '',
          interrupted: status === 'timeout' || status === 'cancelled',
          isImage: false,
        }),
      },
      kodelet: {
        name: 'bash',
        args: { timeout_seconds: 'timeout' },
        fromInput: ({ description: _d, ...rest }) => rest,
        toResponse: ({ args, output, absolute }) => ({
          command: args.command,
          // The status line follows the output, which may print an `exit code:` line of its own.
          exitCode: Number([...output.matchAll(/^exit code: (-?\d+)$/gm)].at(-1)?.[1] ?? -1),
          output,
          workingDir: absolute('.'),
        }),
      },
    },
    async execute({ command, timeout_seconds: timeoutSeconds }, ctx): Promise<ToolOutput> {
      const timeoutMs = timeoutSeconds !== undefined ? timeoutSeconds * 1000 : EXECUTE_TIMEOUT_MS;
      const cwd = await ctx.workspace.resolve('.', 'write');
      const sandbox =
        opts.sandbox && (await sandboxFor(opts.sandbox, ctx.state, ctx.callId, command));
      if (sandbox?.kind === 'refused') throw new ToolError(`not run: ${sandbox.reason}`);
      // Both snapshots are taken outside the sandbox's setup, which may place masks in the workspace.
      const finishSnapshot = await opts.snapshot?.(ctx.workspace.root, ctx.callId);
      const paths = sandbox?.kind === 'sandboxed' ? sandboxPaths(ctx.state) : undefined;
      const wrapped =
        sandbox?.kind === 'sandboxed'
          ? await wrapCommand(
              sandbox,
              {
                workspace: ctx.workspace.root,
                workRoots: ctx.workspace.extraRoots,
                programs: ctx.workspace.programs().map((p) => p.named ?? p.path),
                home: opts.sandbox!.home ?? os.homedir(),
                workbenchHome: opts.sandbox!.workbenchHome,
                deniedRead: paths?.deniedRead,
                deniedWrite: paths?.deniedWrite,
                allowedRead: paths?.allowedRead,
                allowedWrite: paths?.allowedWrite,
              },
              defaultShell(),
              command,
              cwd,
              { ...process.env, ...ctx.env },
            )
          : undefined;
      const live = ctx.onOutput && createLiveOutput({ emit: ctx.onOutput });
      let result: GroupRunResult;
      try {
        result = await runInProcessGroup({
          command: wrapped?.command ?? command,
          cwd,
          env: safeChildEnv({ ...ctx.env, PWD: cwd, ...wrapped?.env }),
          timeoutMs,
          signal: ctx.signal,
          killGraceMs: opts.killGraceMs,
          headBytes: opts.keepBytes,
          tailBytes: opts.keepBytes,
          onData: live ? (stream, chunk) => live.write(stream, chunk) : undefined,
        });
      } finally {
        live?.close();
        await wrapped?.cleanup();
      }
      const status = result.timedOut ? 'timeout' : result.cancelled ? 'cancelled' : 'ok';
      const notes = [
        ...(paths?.limits ?? []),
        ...(wrapped?.notes() ?? []),
        ...((await finishSnapshot?.()) ?? []),
      ];
      const content = formatResult(result, timeoutMs, sandbox, notes);
      return { content, status, streams: { stdout: result.stdout, stderr: result.stderr } };
    },
  });
}

/** The sandbox of one call: the settings, plus the network when a person allowed it for this call. */
async function sandboxFor(
  o: ExecuteSandboxOptions,
  state: object,
  callId: string,
  command: string,
): Promise<CommandSandbox> {
  const network = takeNetworkGrant(state, callId) || o.settings.network;
  return commandSandbox({ ...o.settings, network }, await (o.detect ?? detectSandbox)(), command);
}

/** The text the model sees for a finished command. */
function formatResult(
  r: GroupRunResult,
  timeoutMs: number,
  sandbox: CommandSandbox | undefined,
  extra: string[],
): string {
  let status: string;
  if (r.cancelled) status = 'cancelled';
  else if (r.timedOut) status = `timed out after ${seconds(timeoutMs)}s`;
  else if (r.signal) status = `killed by signal ${r.signal}`;
  else status = `exit code: ${r.exitCode ?? -1}`;
  const notes: string[] = [];
  if (r.killedSurvivors && !r.timedOut && !r.cancelled)
    notes.push('background processes left by the command were stopped');
  if (sandbox) notes.push(`command ${describeCommandSandbox(sandbox)}`);
  notes.push(...extra);
  const shown = terminalText(r.output);
  if (shown.changed)
    notes.push('output shown as a terminal shows it: colours removed, redrawn lines in their last state (`| cat -v` shows the bytes)');
  const output = shown.text.length > 0 ? shown.text.replace(/\n$/, '') : '(no output)';
  return [output, '', status, ...notes].join('\n');
}

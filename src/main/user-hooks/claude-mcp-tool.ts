/**
 * Claude Code's `mcp_tool` handlers (docs/hooks.md, "mcp_tool handlers"): instead of a process, one
 * call of a tool on an MCP server the workbench has connected for the workspace — the same server,
 * trust, switches and deadline as the agent's own calls of it, without an approval prompt (the user
 * wrote the handler). `input` is sent with `${path}` placeholders filled from the hook's input
 * (`${tool_input.file_path}`, `${cwd}`); the tool's text is read as a command's stdout would be, and
 * a tool error is a non-blocking error, as a command's exit 1 is.
 */
import type { ToolCall } from '../../shared/types/index.ts';
import { dispatchToolCall } from '../agent/tool-dispatch.ts';
import type { McpManager } from '../mcp/manager.ts';
import { qualifiedName, serverTools } from '../mcp/tools.ts';
import { ToolRegistry } from '../tools/registry.ts';
import type { Tool } from '../tools/types.ts';
import type { Workspace } from '../tools/workspace.ts';
import type { McpConfigWhere } from '../mcp/config.ts';
import { isRecord } from './json-output.ts';
import {
  STDOUT_CAP_BYTES,
  hookProcessResult,
  type HookProcessResult,
  type HookProcessSpec,
} from './runner.ts';

/** What an mcp_tool handler calls. */
export interface McpToolTarget {
  server: string;
  tool: string;
  input: Record<string, unknown>;
}

/** Where an mcp_tool handler finds its tool: by its workbench name (`mcp__server__tool`). */
export interface McpHookRunner {
  find(name: string): Promise<Tool | undefined>;
  workspace: Workspace;
}

/** A handler's fields as a target, or why it cannot run. */
export function parseMcpToolHandler(h: Record<string, unknown>): McpToolTarget | string {
  if (typeof h.server !== 'string' || h.server.trim() === '')
    return 'an mcp_tool handler needs a "server" name';
  if (typeof h.tool !== 'string' || h.tool.trim() === '')
    return 'an mcp_tool handler needs a "tool" name';
  if (h.input !== undefined && !isRecord(h.input)) return '"input" must be an object';
  return { server: h.server, tool: h.tool, input: isRecord(h.input) ? h.input : {} };
}

/** The value at a dotted path of the hook's input, as text ('' when absent; JSON when not a string). */
function valueAt(input: unknown, path: string): string {
  let value = input;
  for (const key of path.split('.')) value = isRecord(value) ? value[key] : undefined;
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `input` with every `${path}` in its strings (at any depth) replaced from the hook's input. */
export function fillInput(input: unknown, hookInput: unknown): unknown {
  if (typeof input === 'string')
    return input.replace(/\$\{([A-Za-z0-9_.]+)\}/g, (_, path: string) => valueAt(hookInput, path));
  if (Array.isArray(input)) return input.map((v) => fillInput(v, hookInput));
  if (isRecord(input))
    return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, fillInput(v, hookInput)]));
  return input;
}

/**
 * Calls the tool and reports its answer as a process result. Contract: never rejects; the call ends
 * with the run (its signal) and at `spec.timeoutMs`.
 */
export async function callMcpToolHook(
  target: McpToolTarget,
  spec: HookProcessSpec,
  runner: McpHookRunner | undefined,
): Promise<HookProcessResult> {
  const started = performance.now();
  const fail = (error: string) =>
    hookProcessResult(started, { error, errorType: 'mcp_tool_error' });
  if (!runner)
    return fail("an mcp_tool handler needs the workspace's MCP servers, and none were given");
  if (spec.signal?.aborted) return fail('cancelled');
  let hookInput: unknown;
  try {
    hookInput = JSON.parse(spec.stdin ?? '');
  } catch {
    return fail('the hook input is not JSON');
  }
  const name = qualifiedName(target.server, target.tool);
  const tool = await runner.find(name);
  if (!tool)
    return fail(
      `MCP server "${target.server}" offers no tool "${target.tool}" here (not configured, not trusted, switched off or not connected)`,
    );
  const deadline = AbortSignal.timeout(spec.timeoutMs);
  const signal = spec.signal ? AbortSignal.any([spec.signal, deadline]) : deadline;
  const tools = new ToolRegistry();
  tools.register(tool);
  const args = fillInput(target.input, hookInput) as Record<string, unknown>;
  const call: ToolCall = { id: `hook_${name}`, name, args };
  const state = { thread_id: 'hook', messages: [], todos: [], files: {} };
  const result = await dispatchToolCall(call, {
    tools,
    context: () => ({ callId: call.id, workspace: runner.workspace, signal, state }),
  }).catch(() => undefined);
  if (spec.signal?.aborted) return fail('cancelled');
  if (deadline.aborted) return hookProcessResult(started, { timedOut: true });
  if (!result) return fail(`the call of ${name} failed`);
  if (result.error !== undefined) {
    const stderr = result.error.slice(0, STDOUT_CAP_BYTES);
    return hookProcessResult(started, {
      error: `${name} answered with an error: ${stderr.split('\n')[0]!.slice(0, 300)}`,
      errorType: 'mcp_tool_error',
      stderr,
      stderrBytes: Buffer.byteLength(result.error),
    });
  }
  const bytes = Buffer.byteLength(result.output);
  const truncated = bytes > STDOUT_CAP_BYTES;
  return hookProcessResult(started, {
    exitCode: 0,
    stdout: truncated ? '' : result.output,
    stdoutBytes: bytes,
    stdoutTruncated: truncated,
  });
}

/** A runner over the manager's servers for a workspace (the hooks panel's Test and Replay, a run's SessionStart). */
export function managerMcpRunner(
  mcp: McpManager,
  where: McpConfigWhere,
  workspace: Workspace,
): McpHookRunner {
  return {
    workspace,
    async find(name) {
      const { connections } = await mcp.servers(where);
      for (const conn of connections) {
        if (conn.status().status !== 'connected') continue;
        const tool = serverTools(conn, where.settings).find((t) => t.name === name);
        if (tool) return tool;
      }
      return undefined;
    },
  };
}

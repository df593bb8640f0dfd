/**
 * The Tool port: a tool owns its zod schema, what its calls do (effects), its approval preview and its
 * names in other agents' dialects, so policy reads the definition and never a tool's name
 * (docs/tools.md). Also the errors a tool may throw.
 */
import type { z } from 'zod';
import type { AgentState, ElicitAnswer, ToolResult, ToolStatus } from '../../shared/types/index.ts';
import type { ElicitationAsk } from '../pipeline/hook.ts';
import type { Workspace } from './workspace.ts';

/** How a call affects the workspace; decides the approval policy. Reads are always allowed. */
export type ToolKind = 'read' | 'write' | 'execute';

/** What one call does, computed from its parsed arguments. Approval and protected paths read this. */
export interface ToolEffects {
  /** Paths the call reads, as the model gave them (workspace-relative or absolute). */
  readonly reads?: readonly string[];
  /** Paths the call creates or changes. Present, even empty, makes the call a write. */
  readonly writes?: readonly string[];
  /** The shell command the call runs. */
  readonly executes?: string;
}

/** How a finished call is shown to another agent's hooks (`tool_response`, `tool_output.metadata`). */
export interface DialectCall {
  /** The workbench arguments the call ran with. */
  readonly args: Readonly<Record<string, unknown>>;
  /** What the model saw. */
  readonly output: string;
  readonly status: ToolStatus;
  /** A command's stdout and stderr apart, when the tool keeps them apart (execute). */
  readonly streams?: ToolStreams;
  /** A workspace path made absolute, as other agents' hooks expect paths. */
  absolute(path: string): string;
}

/**
 * A tool's name and input fields in another agent's hooks: Claude Code settings hooks (`tool_name`,
 * `tool_input`, `tool_response`) or Kodelet's executable hooks (`tool_name`, `tool_input`,
 * `tool_output`). docs/hooks.md lists the mapping per tool.
 */
export interface ToolDialect {
  readonly name: string;
  /** Workbench argument name → theirs; arguments not named here keep their names. */
  readonly args?: Readonly<Record<string, string>>;
  /** Their names of the fields holding a path: shown absolute, as their hooks expect. */
  readonly paths?: readonly string[];
  /** Reshapes the renamed input (fields they always send, unit changes). */
  toInput?(input: Record<string, unknown>): Record<string, unknown>;
  /** Undoes `toInput` on a hook's rewritten input, before the names are mapped back. */
  fromInput?(input: Record<string, unknown>): Record<string, unknown>;
  /** The finished call in their result shape (default `{output}`). */
  toResponse?(call: DialectCall): Record<string, unknown>;
}

/** A command's two output streams, each bounded like the combined output. */
export type ToolStreams = NonNullable<ToolResult['streams']>;

/** A result that did not end plainly: a timed-out or cancelled command still returns its output. */
export interface ToolOutput {
  content: string;
  status: Extract<ToolStatus, 'ok' | 'timeout' | 'cancelled'>;
  /** stdout and stderr apart, for other agents' hooks; the model sees `content`. */
  streams?: ToolStreams;
}

export interface ToolContext {
  readonly callId: string;
  readonly workspace: Workspace;
  readonly signal: AbortSignal;
  readonly state: AgentState;
  /** Extra variables for commands the call runs (hooks' `CLAUDE_ENV_FILE` exports). */
  readonly env?: Readonly<Record<string, string>>;
  /** Receives output while the call runs (already batched by the tool); absent when nobody watches. */
  readonly onOutput?: (stream: 'stdout' | 'stderr', chunk: string) => void;
  /** Gets the answer to what an MCP server asks the user during this call (RunContext.elicit). */
  readonly elicit?: (ask: ElicitationAsk) => Promise<ElicitAnswer>;
}

export interface Tool<P extends z.ZodType = z.ZodType> {
  readonly name: string; // snake_case, as the model sees it
  readonly description: string;
  readonly parameters: P;
  /** What a call with these arguments does. Pure: never touches the file system. */
  effects(args: z.output<P>): ToolEffects;
  /** The approval prompt's text: exactly what will run or be written (default: name and JSON arguments). */
  preview?(args: z.output<P>): string;
  readonly dialects?: { readonly claude?: ToolDialect; readonly kodelet?: ToolDialect };
  /** True when the tool caps its own output (paging, result limits): it is never evicted. */
  readonly boundedOutput?: boolean;
  /** Arguments carrying file content; compaction cuts them in old messages. */
  readonly contentArgs?: readonly string[];
  /** Attempts for retryable errors; default 1 = no retry (agent.yaml `retries` overrides it). */
  readonly maxAttempts?: number;
  /**
   * The input schema the model sees, as JSON Schema, when it comes from outside (MCP, HTTP tools);
   * `parameters` then only checks that the arguments are an object. Default: `parameters` converted.
   */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  /** Receives the parsed arguments; returns what the model sees. Throws ToolError (or any Error) on failure. */
  execute(args: z.output<P>, ctx: ToolContext): Promise<string | ToolOutput>;
}

/** A tool's return value as content and status (a plain string is an `ok` result). */
export function toolOutput(out: string | ToolOutput): ToolOutput {
  return typeof out === 'string' ? { content: out, status: 'ok' } : out;
}

/** Types a tool definition against its schema; the result goes into any registry. */
export function defineTool<P extends z.ZodType>(tool: Tool<P>): Tool {
  return tool;
}

/**
 * Retry behaviour of a failed tool call (docs/tools.md#errors-and-retries): `retryable` uses an
 * attempt, `cancel` and `discard` stop at once, `snooze` waits and retries without using one.
 */
export type ToolErrorKind = 'retryable' | 'cancel' | 'discard' | 'snooze';

/** The error kinds a tool's answer may name. */
export const TOOL_ERROR_KINDS: readonly ToolErrorKind[] = ['retryable', 'cancel', 'discard', 'snooze'];

export class ToolError extends Error {
  readonly kind: ToolErrorKind;
  /** For `snooze`: the wait; for `retryable`: a wait the tool asks for (Retry-After), else the backoff. */
  readonly delayMs: number | undefined;
  constructor(message: string, kind: ToolErrorKind = 'retryable', delayMs?: number) {
    super(message);
    this.name = 'ToolError';
    this.kind = kind;
    this.delayMs = delayMs;
  }
}

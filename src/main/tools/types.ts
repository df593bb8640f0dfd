/** The Tool port (seed 000 §2) with zod parameters, and the errors a tool may throw. */
import type { z } from 'zod';
import type { AgentState } from '../../shared/types/index.ts';
import type { Workspace } from './workspace.ts';

/** How a tool affects the workspace; decides the approval policy. Reads are always allowed. */
export type ToolKind = 'read' | 'write' | 'execute';

export interface ToolContext {
  readonly callId: string;
  readonly workspace: Workspace;
  readonly signal: AbortSignal;
  readonly state: AgentState;
}

export interface Tool {
  readonly name: string; // snake_case, as the model sees it
  readonly description: string;
  readonly parameters: z.ZodType;
  readonly kind: ToolKind;
  /** Attempts for plain errors (seed 003); default 1 = no retry. */
  readonly maxAttempts?: number;
  /** Returns what the model sees. Throws ToolError (or any Error) on failure. */
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<string>;
}

/** Retry behaviour of a failed tool call (seed 003 "Tool Error Handling"). */
export type ToolErrorKind = 'error' | 'cancel' | 'discard' | 'snooze';

export class ToolError extends Error {
  readonly kind: ToolErrorKind;
  readonly snoozeMs: number;
  constructor(message: string, kind: ToolErrorKind = 'error', snoozeMs = 0) {
    super(message);
    this.name = 'ToolError';
    this.kind = kind;
    this.snoozeMs = snoozeMs;
  }
}

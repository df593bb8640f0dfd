/** What a run may ask of another agent profile (docs/agents.md). */
import type { Message } from '../../shared/types/index.ts';

export interface SubagentOptions {
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  metadata?: Record<string, unknown>;
}

export interface SubagentRequest {
  /** Profile name (`.workbench/agents/<name>.md`, `.claude/agents/<name>.md`, agent.yaml `subagents:`). */
  agent: string;
  /** The subagent's opening messages (usually one user message). */
  messages: Message[];
  options?: SubagentOptions;
  /** The tool call of the parent that started it (task tool); absent for a script delegate. */
  parentToolCallId?: string;
  /** Short label shown on the card (task `description`). */
  description?: string;
}

export interface SubagentResult {
  /** The subagent's final answer. */
  content: string;
  /** The child thread it ran in. */
  threadId: string;
  status: 'ok' | 'error' | 'cancelled';
  error?: string;
}

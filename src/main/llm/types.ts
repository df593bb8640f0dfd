/** The LLM port: one streamed chat completion in, one assembled response out. */
import type { Message, ToolCall, Usage } from '../../shared/types/index.ts';

export interface ToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>; // JSON Schema
}

/** Sampling parameters sent with a request; unset ones are left to the server. */
export interface ModelParams {
  temperature?: number;
  max_tokens?: number;
  /** The newer OpenAI name for the output limit (reasoning models); sent only when set. */
  max_completion_tokens?: number;
  top_p?: number;
  stop?: string[];
}

/**
 * The one request shape: built by the loop from the thread, transformed by modify_request hooks,
 * passed through the wrap_model_call onion and sent by the client (docs/architecture.md).
 * Contract: `system` blocks are joined with blank lines into one leading system message on the
 * wire; a system message inside `messages` is sent where it stands.
 */
export interface ModelRequest {
  model: string;
  /** Ordered system-prompt blocks (profile prompt, skills catalog, memory, …). */
  system: string[];
  messages: Message[];
  tools: ToolSchema[];
  params: ModelParams;
}

/** The assembled answer of one model call. */
export interface LlmResponse {
  content: string;
  tool_calls: ToolCall[];
  usage?: Usage;
  finish_reason?: string;
  /** The stream broke after it started: `content` is partial and `tool_calls` is empty (none may run). */
  interrupted?: boolean;
  /** Why the stream broke, when `interrupted`. */
  error?: string;
  /** Calls whose argument JSON did not parse: call id → parse error. Their `args` are `{}`. */
  invalid_args?: Record<string, string>;
}

export interface ChatOptions {
  signal: AbortSignal;
  /** Called with each text delta as it streams. */
  onDelta?: (text: string) => void;
  /** Called once when the first chunk arrives (time to first token). */
  onFirstChunk?: () => void;
  /** Called before each retry with the attempt number and the delay. */
  onRetry?: (attempt: number, delayMs: number, reason: string) => void;
}

/**
 * Contract: resolves with the assembled response, including a broken stream (`interrupted: true`);
 * rejects with `LlmError` when no answer started (unreachable, 401, 404 model, retries exhausted) and
 * with an `AbortError` when the signal aborts.
 */
export interface LlmClient {
  chat(req: ModelRequest, opts: ChatOptions): Promise<LlmResponse>;
}

export type LlmErrorCode =
  | 'unreachable'
  | 'unauthorized'
  | 'model_not_found'
  | 'rate_limited'
  | 'server_error'
  | 'bad_request'
  | 'timeout'
  | 'unknown';

/** A model call that failed before any answer streamed; `message` is one clear line for the user. */
export class LlmError extends Error {
  readonly code: LlmErrorCode;
  readonly status?: number;
  constructor(code: LlmErrorCode, message: string, status?: number) {
    super(message);
    this.name = 'LlmError';
    this.code = code;
    this.status = status;
  }
}

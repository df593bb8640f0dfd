/**
 * Next's payload (docs/agents.md#script-hooks-create--next): the messages of the last model request,
 * the last completion, every tool call of the run with its result, and the model error if the run
 * failed. A tool result that is JSON is handed over parsed, so `tool.result.intent` reads naturally.
 */
import type { Message, Usage } from '../../../shared/types/index.ts';
import type { LlmResponse } from '../../llm/types.ts';

export interface NextPayload {
  messages: Array<{ role: string; content: string; tool_calls?: unknown; tool_call_id?: string }>;
  completion: {
    content: string;
    tool_calls: Array<{ id: string; name: string; arguments: unknown }>;
    usage?: Usage;
  } | null;
  tools: Array<{
    toolcall_id: string;
    tool: string;
    arguments: unknown;
    result?: unknown;
    error?: string;
  }>;
  error?: string;
}

const FAILED = new Set(['error', 'blocked', 'denied', 'cancelled']);

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The tool calls made since `from` (the run's first message) paired with their results. */
export function runTools(messages: readonly Message[], from: number): NextPayload['tools'] {
  const results = new Map<string, Message>();
  for (const m of messages.slice(from))
    if (m.role === 'tool' && m.tool_call_id) results.set(m.tool_call_id, m);
  const tools: NextPayload['tools'] = [];
  for (const m of messages.slice(from)) {
    for (const call of m.role === 'assistant' ? (m.tool_calls ?? []) : []) {
      const result = results.get(call.id);
      const failed =
        result && (FAILED.has(result.status ?? '') || result.content.startsWith('Error: '));
      tools.push({
        toolcall_id: call.id,
        tool: call.name,
        arguments: call.args,
        ...(result && !failed ? { result: parsedOrText(result.content) } : {}),
        ...(failed ? { error: result.content.replace(/^Error: /, '') } : {}),
      });
    }
  }
  return tools;
}

/** Builds the payload. `sent` is the last request's messages (the thread when no request was made). */
export function nextPayload(
  sent: readonly Message[],
  response: LlmResponse | undefined,
  tools: NextPayload['tools'],
  error?: string,
): NextPayload {
  return {
    messages: sent.map((m) => ({
      role: m.role,
      content: m.content,
      ...(m.tool_calls
        ? { tool_calls: m.tool_calls.map((c) => ({ id: c.id, name: c.name, arguments: c.args })) }
        : {}),
      ...(m.tool_call_id ? { tool_call_id: m.tool_call_id } : {}),
    })),
    completion: response
      ? {
          content: response.content,
          tool_calls: response.tool_calls.map((c) => ({
            id: c.id,
            name: c.name,
            arguments: c.args,
          })),
          ...(response.usage ? { usage: response.usage } : {}),
        }
      : null,
    tools,
    ...(error ? { error } : {}),
  };
}

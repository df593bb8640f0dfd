/** Maps our conversation types onto the OpenAI chat-completions wire format. */
import type { Message } from '../../shared/types/index.ts';
import type { ModelRequest, ToolSchema } from './types.ts';

/** One message as `POST /chat/completions` expects it. */
export type OpenAiMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAiToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** An assistant tool call on the wire. */
export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A function tool on the wire. */
export interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The system blocks of a request as the text of its one leading system message ('' when none). */
export function systemText(system: readonly string[]): string {
  return system.filter((block) => block.trim()).join('\n\n');
}

/** The wire messages of a request: its system blocks as one leading system message, then its messages. */
export function requestMessages(req: Pick<ModelRequest, 'system' | 'messages'>): OpenAiMessage[] {
  const system = systemText(req.system);
  const messages = toOpenAiMessages(req.messages);
  return system ? [{ role: 'system', content: system }, ...messages] : messages;
}

/**
 * Converts our messages to OpenAI chat messages.
 * Contract: our extra fields (`name`, `interrupted`, `raw_args`…) never reach the wire; an interrupted
 * assistant message keeps its partial text; tool-call arguments are sent as the model's raw JSON when
 * known, so the model sees exactly what it produced.
 */
export function toOpenAiMessages(messages: readonly Message[]): OpenAiMessage[] {
  return messages.map((m): OpenAiMessage => {
    switch (m.role) {
      case 'assistant': {
        const calls = m.tool_calls ?? [];
        if (calls.length === 0) return { role: 'assistant', content: m.content };
        return {
          role: 'assistant',
          // Some servers reject `""` next to tool_calls; null is what OpenAI itself emits.
          content: m.content === '' ? null : m.content,
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: c.raw_args ?? JSON.stringify(c.args ?? {}) },
          })),
        };
      }
      case 'tool':
        return { role: 'tool', tool_call_id: m.tool_call_id ?? '', content: m.content };
      default:
        return { role: m.role, content: m.content };
    }
  });
}

/** Converts tool schemas to OpenAI function tools; `undefined` when there are none (omit the field). */
export function toOpenAiTools(tools: readonly ToolSchema[]): OpenAiTool[] | undefined {
  if (tools.length === 0) return undefined;
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

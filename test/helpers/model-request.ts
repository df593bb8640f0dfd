/** A ModelRequest around `messages` for hook tests (model 'm', no tools, no params). */
import type { ModelRequest } from '../../src/main/llm/types.ts';
import type { Message } from '../../src/shared/types/index.ts';

export function requestOf(messages: Message[], system: string[] = []): ModelRequest {
  return { model: 'm', system, messages, tools: [], params: {} };
}

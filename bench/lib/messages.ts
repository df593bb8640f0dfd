/**
 * A synthetic but realistic conversation for pre-filling threads: user asks, the assistant calls
 * read_file, the tool answers with ~1.2 KB of numbered source lines; every 20 messages the assistant
 * answers in text and the user asks again. A valid chain: every tool call is answered.
 */
import type { Message } from '../../src/shared/types/index.ts';

const LINE = 'export function handle(request: Request): Response { return route(request, table); }';

/** ~1.2 KB of `cat -n` style output, varying with `i` so pages do not compress to nothing. */
function toolOutput(i: number): string {
  const lines: string[] = [];
  for (let n = 1; n <= 14; n++)
    lines.push(`${String(n).padStart(6)}\t${LINE.slice(0, 60 + ((i + n) % 24))} // ${i}.${n}`);
  return lines.join('\n');
}

/** `count` (≥ 4) messages starting with a user message and ending with an assistant text answer. */
export function syntheticThread(count: number, seed = 0): Message[] {
  const out: Message[] = [
    {
      role: 'user',
      content: `Task ${seed}: find where requests are routed and explain the table lookup, then suggest a cleaner structure for the handlers.`,
    },
  ];
  let i = 0;
  const call = (n: number): Message[] => {
    const ids = Array.from({ length: n }, (_, k) => `call_${seed}_${i}_${k}`);
    const msgs: Message[] = [
      {
        role: 'assistant',
        content: 'Let me read that file.',
        tool_calls: ids.map((id, k) => ({
          id,
          name: 'read_file',
          args: { path: `src/file-${i + k}.ts` },
          raw_args: `{"path":"src/file-${i + k}.ts"}`,
        })),
      },
    ];
    for (const [k, id] of ids.entries())
      msgs.push({ role: 'tool', content: toolOutput(i + k), tool_call_id: id, name: 'read_file' });
    i += n;
    return msgs;
  };
  // An odd count needs one odd-sized unit: a round with two parallel calls (3 messages).
  if (count % 2 === 1) out.push(...call(2));
  let pairs = 0;
  while (out.length < count - 1) {
    if (++pairs % 10 === 0 && count - out.length >= 3) {
      out.push({
        role: 'assistant',
        content: `The router at src/router.ts:${i} dispatches through a lookup table; handlers are registered once at start. ${'Details follow. '.repeat(12)}`,
      });
      out.push({
        role: 'user',
        content: `Good. Now look at file ${i} and check whether the same pattern is used there, please.`,
      });
    } else out.push(...call(1));
  }
  out.push({
    role: 'assistant',
    content: 'Done: the table lookup is in src/router.ts and the handlers follow the same pattern.',
  });
  return out;
}

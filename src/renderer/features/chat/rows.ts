/** Turns a ThreadChat into the rows the virtualized message list shows. Pure. */
import type { ToolCall, Usage } from '../../../shared/types/index.ts';
import type { Notice, ThreadChat } from '../../stores/chat-types.ts';
import type { StreamText } from '../../stores/stream-text.ts';

export type Row =
  | { key: string; kind: 'user'; text: string; index: number }
  | {
      key: string;
      kind: 'assistant';
      text: string;
      usage?: Usage;
      interrupted?: boolean;
      /** On the thread's last answer when the run ended: the user message it answers, for Regenerate. */
      regenerate?: { index: number; text: string };
    }
  | { key: string; kind: 'tools'; calls: ToolCall[]; usage?: Usage }
  | { key: string; kind: 'notice'; notice: Notice }
  | {
      key: string;
      kind: 'streaming';
      text: StreamText;
      /** What the run waits for from the user: an approval, or an answer to an MCP server's question. */
      waiting?: 'approval' | 'answer';
    };

/** The rows of a thread, in order; the streaming answer and a "thinking" row come last. */
export function buildRows(t: ThreadChat): Row[] {
  const rows: Row[] = [];
  const notices = new Map<number, Notice[]>();
  for (const n of t.notices) notices.set(n.afterIndex, [...(notices.get(n.afterIndex) ?? []), n]);
  const pushNotices = (i: number) =>
    notices.get(i)?.forEach((n) => rows.push({ key: n.id, kind: 'notice', notice: n }));
  pushNotices(-1);
  t.messages.forEach((m, i) => {
    if (m.role === 'user')
      rows.push({ key: `m${i}`, kind: 'user', text: stripHookContext(m.content), index: i });
    else if (m.role === 'assistant') {
      const hasCalls = Boolean(m.tool_calls?.length);
      if (m.content || !hasCalls) {
        rows.push({
          key: `m${i}`,
          kind: 'assistant',
          text: m.content,
          usage: hasCalls ? undefined : t.usage[i],
          interrupted: m.interrupted,
        });
      }
      if (hasCalls)
        rows.push({ key: `t${i}`, kind: 'tools', calls: m.tool_calls!, usage: t.usage[i] });
    }
    pushNotices(i);
  });
  // Keyed like the message it becomes, so React keeps the streamed answer's blocks when it lands.
  if (t.running)
    rows.push({
      key: `m${t.messages.length}`,
      kind: 'streaming',
      text: t.streaming,
      waiting:
        t.approvals.length > 0 ? 'approval' : t.elicitations.length > 0 ? 'answer' : undefined,
    });
  else markRegenerate(t, rows);
  return rows;
}

/** Hook context the run added to a user message is not what the user typed. */
export const stripHookContext = (text: string): string =>
  text.replace(/\n\n<hook_context>[\s\S]*<\/hook_context>$/, '');

/** Gives the last answer row the user message it answers, so it can be regenerated. */
function markRegenerate(t: ThreadChat, rows: Row[]): void {
  let userIndex = -1;
  for (let i = t.messages.length - 1; i >= 0; i--) {
    if (t.messages[i]!.role === 'user') {
      userIndex = i;
      break;
    }
  }
  const last = rows.at(-1);
  if (userIndex < 0 || last?.kind !== 'assistant') return;
  rows[rows.length - 1] = {
    ...last,
    regenerate: { index: userIndex, text: stripHookContext(t.messages[userIndex]!.content) },
  };
}

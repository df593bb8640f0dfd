/** Turns a ThreadChat into the rows the virtualized message list shows. Pure. */
import type { ToolCall, Usage } from '../../../shared/types/index.ts';
import type { Notice, ThreadChat } from '../../stores/chat-types.ts';

export type Row =
  | { key: string; kind: 'user'; text: string }
  | { key: string; kind: 'assistant'; text: string; usage?: Usage; interrupted?: boolean }
  | { key: string; kind: 'tools'; calls: ToolCall[]; usage?: Usage }
  | { key: string; kind: 'notice'; notice: Notice }
  | { key: string; kind: 'streaming'; text: string; waiting: boolean };

/** The rows of a thread, in order; the streaming answer and a "thinking" row come last. */
export function buildRows(t: ThreadChat): Row[] {
  const rows: Row[] = [];
  const notices = new Map<number, Notice[]>();
  for (const n of t.notices) notices.set(n.afterIndex, [...(notices.get(n.afterIndex) ?? []), n]);
  const pushNotices = (i: number) => notices.get(i)?.forEach((n) => rows.push({ key: n.id, kind: 'notice', notice: n }));
  pushNotices(-1);
  t.messages.forEach((m, i) => {
    if (m.role === 'user') rows.push({ key: `m${i}`, kind: 'user', text: m.content });
    else if (m.role === 'assistant') {
      const hasCalls = Boolean(m.tool_calls?.length);
      if (m.content || !hasCalls) {
        rows.push({ key: `m${i}`, kind: 'assistant', text: m.content, usage: hasCalls ? undefined : t.usage[i], interrupted: m.interrupted });
      }
      if (hasCalls) rows.push({ key: `t${i}`, kind: 'tools', calls: m.tool_calls!, usage: t.usage[i] });
    }
    pushNotices(i);
  });
  if (t.running) rows.push({ key: 'streaming', kind: 'streaming', text: t.streaming, waiting: t.approvals.length > 0 });
  return rows;
}


/** A model span's request as the trace keeps it: the system prompt and the newest messages, each collapsible. */
import type { SpanRecord } from '../../../shared/types/index.ts';

interface Captured {
  role: string;
  content: string;
  tool_calls?: string[];
}

function parseMessages(raw: unknown): Captured[] {
  if (typeof raw !== 'string') return [];
  try {
    const v = JSON.parse(raw) as unknown;
    return Array.isArray(v) ? (v as Captured[]) : [];
  } catch {
    return [];
  }
}

/** Nothing for spans recorded without a captured request. */
export function ModelRequest({ span }: { span: SpanRecord }) {
  const system = span.attributes['gen_ai.system_instructions'];
  const messages = parseMessages(span.attributes['gen_ai.input.messages']);
  const omitted = Number(span.attributes['workbench.input.messages_omitted'] ?? 0);
  if (typeof system !== 'string' && messages.length === 0) return null;
  return (
    <section className="trace-block" data-testid="trace-drawer-request">
      <h4>Request</h4>
      {typeof system === 'string' && system && (
        <details className="trace-message">
          <summary>system</summary>
          <pre>{system}</pre>
        </details>
      )}
      {omitted > 0 && <p className="muted">{`${omitted} older messages not kept`}</p>}
      {messages.map((m, i) => (
        <details key={i} className="trace-message" open={i === messages.length - 1}>
          <summary>
            {m.role}
            {m.tool_calls?.length ? ` → ${m.tool_calls.join(', ')}` : ''}
            {m.content ? <span className="muted">{` ${m.content.slice(0, 80)}`}</span> : null}
          </summary>
          {m.content && <pre>{m.content}</pre>}
        </details>
      ))}
    </section>
  );
}

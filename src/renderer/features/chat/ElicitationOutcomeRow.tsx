import type { Notice } from '../../stores/chat-types.ts';
import { answerText } from './elicitation-events.ts';

/** A chat row for an MCP server's question once answered: the question, then how it was answered, on one line. */
export function ElicitationOutcomeRow({ notice }: { notice: Notice }) {
  const o = notice.elicitation;
  if (!o) return null;
  return (
    <div
      className="notice notice-elicitation"
      data-testid="elicitation-outcome"
      title={notice.text}
    >
      <span className="elicitation-asked">
        MCP server <strong>{o.server}</strong> asked: {o.message}
      </span>
      <span className="elicitation-answer"> — {answerText(o)}</span>
    </div>
  );
}

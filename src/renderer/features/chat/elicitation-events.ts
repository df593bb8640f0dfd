/**
 * MCP elicitation in the chat's read model (docs/tools.md#when-a-server-asks-you): a server's
 * question waits as a card until it is answered, then stays as a one-line outcome. Shared by a
 * thread's own events and a subagent's events shown in its parent.
 */
import type { ElicitationRequestView } from '../../../shared/types/index.ts';
import { addNotice, type ElicitationOutcome, type ThreadChat } from '../../stores/chat-types.ts';

/** `t` with `request` waiting for an answer. Contract: pure; a request already waiting is kept once. */
export function requestElicitation(t: ThreadChat, request: ElicitationRequestView): ThreadChat {
  if (t.elicitations.some((e) => e.elicitation_id === request.elicitation_id)) return t;
  return { ...t, elicitations: [...t.elicitations, request] };
}

/**
 * `t` with the answered question's card replaced by its outcome line. Contract: pure; an outcome
 * without a request (a hook answered, or nobody could) gets its line too.
 */
export function resolveElicitation(t: ThreadChat, outcome: ElicitationOutcome): ThreadChat {
  const elicitations = t.elicitations.filter((e) => e.elicitation_id !== outcome.elicitation_id);
  return addNotice(
    { ...t, elicitations },
    { kind: 'elicitation', text: outcomeText(outcome), elicitation: outcome },
  );
}

const PAST: Record<ElicitationOutcome['action'], string> = {
  accept: 'accepted',
  decline: 'declined',
  cancel: 'cancelled',
};

const BY_USER: Record<ElicitationOutcome['action'], string> = {
  accept: 'You answered',
  decline: 'You declined',
  cancel: 'You cancelled',
};

/** How the question was answered, in a few words: "You declined", "answered by hook audit: accept". */
export function answerText(o: ElicitationOutcome): string {
  if (o.answered_by === 'user')
    return o.hook ? `answered by you, changed by hook ${o.hook}: ${o.action}` : BY_USER[o.action];
  if (o.answered_by === 'hook')
    return `answered by ${o.hook ? `hook ${o.hook}` : 'a hook'}: ${o.action}`;
  if (o.answered_by === 'server') return 'finished on the page, the server says';
  return `${PAST[o.action]}: nobody could answer`;
}

/** The whole outcome line: "MCP server demo asked: Who is signing up? — You answered". */
export function outcomeText(o: ElicitationOutcome): string {
  return `MCP server ${o.server} asked: ${o.message} — ${answerText(o)}`;
}

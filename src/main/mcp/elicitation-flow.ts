/**
 * Who answers an MCP server's request for input (docs/tools.md#when-a-server-asks-you): a hook of
 * the elicitation phase (Claude Elicitation), else the person (the app's form; a page the server
 * reports finished needs no answer), else nobody — then it is declined; then the
 * elicitation_result phase may change the answer (Claude ElicitationResult). Whatever answers, an accepted form is checked against its fields before the
 * server sees it, and the chat is told how it was answered.
 */
import { randomUUID } from 'node:crypto';
import { contentProblem } from '../../shared/elicitation.ts';
import type { ElicitAnswer } from '../../shared/types/index.ts';
import type { PersonAnswer } from './elicitation-broker.ts';
import type { ElicitationAsk, ElicitationDecision, RunContext } from '../pipeline/hook.ts';
import type { Pipeline } from '../pipeline/run-phase.ts';
import type { SpanHandle } from '../tracing/types.ts';

/** The person's time on a call's requests, which the timeline counts as waiting, not tool time. */
const WAIT_MS = 'workbench.elicitation.wait_ms';

/** Asks the person, the request shown under `id`; absent where nobody can answer (the CLI). */
export type ElicitPerson = (
  ctx: RunContext,
  ask: ElicitationAsk,
  id: string,
) => Promise<PersonAnswer>;

/** A hook's answer as the server may get it: an accepted form that does not fit it is declined. */
function checked(
  ctx: RunContext,
  ask: ElicitationAsk,
  d: ElicitationDecision,
  event: string,
): ElicitAnswer {
  if (d.action !== 'accept') return { action: d.action };
  if (ask.mode === 'url') return { action: 'accept' };
  const problem = contentProblem(ask.fields ?? [], d.content ?? {});
  if (!problem) return { action: 'accept', content: d.content ?? {} };
  ctx.emit({
    event: 'on_hook_message',
    name: d.by,
    data: {
      hook: d.by,
      event,
      message: `its answer to ${ask.server} was declined: ${problem}`,
      kind: 'message',
    },
  });
  return { action: 'decline' };
}

export async function answerElicitation(
  ctx: RunContext,
  pipeline: Pick<Pipeline, 'elicitation' | 'elicitationResult'>,
  ask: ElicitationAsk,
  person: ElicitPerson | undefined,
  span?: SpanHandle,
): Promise<ElicitAnswer> {
  const id = `el_${randomUUID()}`;
  const tell = (
    answer: ElicitAnswer,
    answeredBy: 'user' | 'hook' | 'server' | 'nobody',
    more: { hook?: string; reason?: string } = {},
  ) =>
    ctx.emit({
      event: 'on_elicitation_resolved',
      data: {
        elicitation_id: id,
        server: ask.server,
        message: ask.message,
        action: answer.action,
        answered_by: answeredBy,
        ...more,
      },
    });
  // What cannot be shown is declined before any hook or person sees it.
  if (ask.unusable) {
    tell({ action: 'decline' }, 'nobody', { reason: ask.unusable });
    return { action: 'decline' };
  }
  let answer: ElicitAnswer;
  let answeredBy: 'user' | 'hook' | 'server' | 'nobody';
  let hook: string | undefined;
  const fromHook = await pipeline.elicitation(ctx, ask);
  if (fromHook) {
    answer = checked(ctx, ask, fromHook, 'Elicitation');
    answeredBy = 'hook';
    hook = fromHook.by;
  } else if (person) {
    const asked = performance.now();
    const { finishedByServer, ...given } = await person(ctx, ask, id);
    answer = given;
    answeredBy = finishedByServer ? 'server' : 'user';
    const before = Number(span?.record.attributes[WAIT_MS] ?? 0);
    span?.set(WAIT_MS, before + Math.round(performance.now() - asked));
  } else {
    answer = { action: 'decline' };
    answeredBy = 'nobody';
  }
  const changed = await pipeline.elicitationResult(ctx, ask, answer);
  if (changed) {
    answer = checked(ctx, ask, changed, 'ElicitationResult');
    hook = changed.by;
    if (answeredBy === 'nobody') answeredBy = 'hook';
  }
  tell(answer, answeredBy, {
    ...(hook ? { hook } : {}),
    ...(answeredBy === 'nobody' ? { reason: 'nobody can answer here' } : {}),
  });
  return answer;
}

/**
 * MCP elicitations waiting for the person (docs/tools.md#when-a-server-asks-you), across runs; one
 * per workbench. A request is shown with `on_elicitation_request` and waits for
 * `chat.answerElicitation`; an accepted form that does not fit its fields is refused and keeps
 * waiting; a page the server reports finished is accepted without the person; a cancelled run
 * cancels its requests.
 */
import { contentProblem } from '../../shared/elicitation.ts';
import type { ElicitAnswer, ElicitationRequestView } from '../../shared/types/index.ts';
import type { ElicitationAsk, RunContext } from '../pipeline/hook.ts';

/** The person's answer, or the server's report that its page finished (then nobody had to answer). */
export type PersonAnswer = ElicitAnswer & { finishedByServer?: true };

interface Pending {
  threadId: string;
  view: ElicitationRequestView;
  resolve(answer: PersonAnswer): void;
}

export class ElicitationBroker {
  private readonly pending = new Map<string, Pending>();

  /** Shows the request in the run's chat and waits for the person's answer. */
  ask(ctx: RunContext, ask: ElicitationAsk, id: string): Promise<PersonAnswer> {
    const view: ElicitationRequestView = {
      elicitation_id: id,
      server: ask.server,
      message: ask.message,
      mode: ask.mode,
      ...(ask.fields ? { fields: ask.fields } : {}),
      ...(ask.url ? { url: ask.url } : {}),
      ...(ask.required ? { required: true } : {}),
      ...(ask.callId ? { tool_call_id: ask.callId } : {}),
      // A subagent's request names it, as its approval prompts do (docs/agents.md).
      ...(ctx.depth ? { agent: ctx.profile.name } : {}),
    };
    const answered = new Promise<PersonAnswer>((resolve) => {
      const done = (answer: PersonAnswer) => {
        if (!this.pending.has(id)) return;
        ctx.signal.removeEventListener('abort', onAbort);
        this.pending.delete(id);
        resolve(answer);
      };
      const onAbort = () => done({ action: 'cancel' });
      this.pending.set(id, { threadId: ctx.threadId, view, resolve: done });
      if (ctx.signal.aborted) return onAbort();
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      void ask.finished?.then(() => done({ action: 'accept', finishedByServer: true }));
    });
    ctx.emit({ event: 'on_elicitation_request', name: ask.server, data: view });
    // Notification hooks (a desktop notice) run while the form waits, not before it.
    void ctx.notify?.({ type: 'elicitation_dialog', server: ask.server, message: ask.message });
    return answered;
  }

  /**
   * Answers a waiting request. Contract: `accepted` false with `error` when the id is unknown (already
   * answered, or its run ended) or an accepted form does not fit its fields (the request keeps waiting).
   */
  answer(id: string, answer: ElicitAnswer): { accepted: boolean; error?: string } {
    const p = this.pending.get(id);
    if (!p)
      return { accepted: false, error: 'this request was already answered or its run has ended' };
    if (answer.action !== 'accept' || p.view.mode === 'url') {
      p.resolve({ action: answer.action });
      return { accepted: true };
    }
    const content = answer.content ?? {};
    const problem = contentProblem(p.view.fields ?? [], content);
    if (problem) return { accepted: false, error: problem };
    p.resolve({ action: 'accept', content });
    return { accepted: true };
  }

  /** The requests still waiting on a thread, oldest first (a reloaded page shows them again). */
  pendingFor(threadId: string): ElicitationRequestView[] {
    return [...this.pending.values()].filter((p) => p.threadId === threadId).map((p) => p.view);
  }
}

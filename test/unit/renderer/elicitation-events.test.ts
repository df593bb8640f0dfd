/** MCP servers' questions in the chat's read model: waiting cards, their outcome lines, reloads. */
import { describe, expect, it } from 'vitest';
import { applyEvents, loadThread } from '../../../src/renderer/stores/apply-event.ts';
import { buildRows } from '../../../src/renderer/features/chat/rows.ts';
import { answerText } from '../../../src/renderer/features/chat/elicitation-events.ts';
import type { ChatData } from '../../../src/renderer/stores/chat-types.ts';
import type { AgentEventEnvelope } from '../../../src/shared/ipc/contract.ts';
import type { ElicitationRequestView, RunEvent } from '../../../src/shared/types/index.ts';

const T = 'th1';
let seq = 0;
const env = (event: RunEvent): AgentEventEnvelope => ({
  seq: ++seq,
  event: { ...event, run_id: 'r1', thread_id: T },
});
const empty = (): ChatData => ({ threads: {}, lastSeq: 0 });
const call = { id: 'c1', name: 'mcp__demo__signup', args: {} };
const signup: ElicitationRequestView = {
  elicitation_id: 'e1',
  server: 'demo',
  message: 'Who is signing up?',
  mode: 'form',
  fields: [{ kind: 'string', name: 'name', title: 'Your name', required: true, minLength: 2 }],
  tool_call_id: 'c1',
};
const started = [
  env({ event: 'on_run_start', data: { workspace: '/w', model: 'm' } }),
  env({ event: 'on_message', data: { index: 0, message: { role: 'user', content: 'sign up' } } }),
  env({
    event: 'on_message',
    data: { index: 1, message: { role: 'assistant', content: '', tool_calls: [call] } },
  }),
  env({ event: 'on_tool_start', data: { tool_call_id: 'c1', args: {} } }),
];

describe('MCP elicitation in the chat', () => {
  it('shows a request as a waiting card, once, and the run as waiting for an answer', () => {
    const request = env({ event: 'on_elicitation_request', name: 'demo', data: signup });
    const t = applyEvents(empty(), [...started, request, request]).threads[T]!;
    expect(t.elicitations).toEqual([signup]);
    expect(buildRows(t).at(-1)).toMatchObject({ kind: 'streaming', waiting: 'answer' });
  });

  it('replaces an answered card with its outcome line, right after the call it came during', () => {
    const t = applyEvents(empty(), [
      ...started,
      env({ event: 'on_elicitation_request', data: signup }),
      env({
        event: 'on_elicitation_resolved',
        data: {
          elicitation_id: 'e1',
          server: 'demo',
          message: 'Who is signing up?',
          action: 'accept',
          answered_by: 'user',
        },
      }),
    ]).threads[T]!;
    expect(t.elicitations).toEqual([]);
    const rows = buildRows(t);
    expect(rows.map((r) => r.kind)).toEqual(['user', 'tools', 'notice', 'streaming']);
    expect(rows[2]).toMatchObject({
      notice: {
        kind: 'elicitation',
        text: 'MCP server demo asked: Who is signing up? — You answered',
        elicitation: { elicitation_id: 'e1', action: 'accept', answered_by: 'user' },
      },
    });
    expect(rows[3]).toMatchObject({ waiting: undefined });
  });

  it('shows an outcome that had no request: a hook answered, or nobody could', () => {
    const asked = { server: 'demo', message: 'Who is signing up?' };
    const t = applyEvents(empty(), [
      ...started,
      env({
        event: 'on_elicitation_resolved',
        data: {
          ...asked,
          elicitation_id: 'e2',
          action: 'accept',
          answered_by: 'hook',
          hook: 'autofill',
        },
      }),
      env({
        event: 'on_elicitation_resolved',
        data: { ...asked, elicitation_id: 'e3', action: 'decline', answered_by: 'nobody' },
      }),
    ]).threads[T]!;
    expect(t.elicitations).toEqual([]);
    expect(t.notices.map((n) => n.text)).toEqual([
      'MCP server demo asked: Who is signing up? — answered by hook autofill: accept',
      'MCP server demo asked: Who is signing up? — declined: nobody could answer',
    ]);
  });

  it('words every way a question can end', () => {
    const o = { elicitation_id: 'e', server: 's', message: 'm' };
    expect(answerText({ ...o, action: 'decline', answered_by: 'user' })).toBe('You declined');
    expect(answerText({ ...o, action: 'cancel', answered_by: 'user' })).toBe('You cancelled');
    expect(answerText({ ...o, action: 'decline', answered_by: 'user', hook: 'policy' })).toBe(
      'answered by you, changed by hook policy: decline',
    );
    expect(answerText({ ...o, action: 'cancel', answered_by: 'hook' })).toBe(
      'answered by a hook: cancel',
    );
    expect(answerText({ ...o, action: 'accept', answered_by: 'server' })).toBe(
      'finished on the page, the server says',
    );
  });

  it('drops waiting cards when the run ends', () => {
    const t = applyEvents(empty(), [
      ...started,
      env({ event: 'on_elicitation_request', data: signup }),
      env({ event: 'done', data: { stop_reason: 'cancelled', iterations: 1 } }),
    ]).threads[T]!;
    expect(t.elicitations).toEqual([]);
  });

  it('shows the pending requests of a loaded thread again, and none once its run is over', () => {
    const state = {
      thread_id: T,
      messages: [
        { role: 'user' as const, content: 'sign up' },
        { role: 'assistant' as const, content: '', tool_calls: [call] },
      ],
      todos: [],
      files: {},
    };
    const loaded = loadThread(empty(), state, true, [], [signup]).threads[T]!;
    expect(loaded.elicitations).toEqual([signup]);
    expect(buildRows(loaded).at(-1)).toMatchObject({ kind: 'streaming', waiting: 'answer' });
    // A request that arrived after the snapshot was taken is kept.
    const later = { ...signup, elicitation_id: 'e9' };
    const live = applyEvents(empty(), [env({ event: 'on_elicitation_request', data: later })]);
    expect(loadThread(live, state, true, [], [signup]).threads[T]!.elicitations).toEqual([
      signup,
      later,
    ]);
    expect(loadThread(live, state, false, [], [signup]).threads[T]!.elicitations).toEqual([]);
  });
});

/**
 * A subagent's events in its parent's chat: the task card's status and activity, its approvals and
 * its MCP servers' questions.
 */
import { describe, expect, it } from 'vitest';
import { applyEvents, loadThread } from '../../../src/renderer/stores/apply-event.ts';
import { subagentsFromChildren } from '../../../src/renderer/features/agents/subagent-events.ts';
import { applySpanEvents } from '../../../src/renderer/features/trace/trace-data.ts';
import type { AgentEventEnvelope } from '../../../src/shared/ipc/contract.ts';
import type { RunEvent, SpanRecord } from '../../../src/shared/types/index.ts';

let seq = 0;
const parentEnv = (event: RunEvent): AgentEventEnvelope => ({
  seq: ++seq,
  event: { ...event, run_id: 'r1', thread_id: 'parent' },
});
const childEnv = (event: RunEvent): AgentEventEnvelope => ({
  seq: ++seq,
  event: {
    ...event,
    run_id: 'r2',
    thread_id: 'child',
    depth: 1,
    agent: 'researcher',
    parent_thread_id: 'parent',
    parent_tool_call_id: 'call_t',
  },
});
const call = { id: 'call_x', name: 'execute', args: { command: 'make test' } };

describe('subagent events', () => {
  it('drive the task card in the parent thread and bring the subagent approval there, named', () => {
    let d = applyEvents({ threads: {}, lastSeq: 0 }, [
      parentEnv({
        event: 'on_tool_start',
        name: 'task',
        data: { tool_call_id: 'call_t', args: { subagent_type: 'researcher', description: 'x' } },
      }),
      childEnv({ event: 'on_run_start', data: { workspace: '/w', model: 'm' } }),
      childEnv({
        event: 'on_tool_start',
        name: 'execute',
        data: { tool_call_id: 'call_x', args: call.args },
      }),
      childEnv({
        event: 'on_approval_request',
        name: 'execute',
        data: {
          approval_id: 'a1',
          tool_call: call,
          kind: 'execute',
          preview: 'make test',
          agent: 'researcher',
        },
      }),
    ]);
    const parent = d.threads.parent!;
    expect(parent.subagents).toEqual({
      call_t: {
        agent: 'researcher',
        threadId: 'child',
        status: 'running',
        activity: 'waiting for your approval',
      },
    });
    expect(parent.approvals).toEqual([
      {
        approvalId: 'a1',
        toolCall: call,
        kind: 'execute',
        preview: 'make test',
        agent: 'researcher',
      },
    ]);
    // The child thread keeps its own copy of its run.
    expect(d.threads.child!.approvals).toHaveLength(1);

    d = applyEvents(d, [
      childEnv({
        event: 'on_approval_resolved',
        data: { approval_id: 'a1', decision: 'allow_once' },
      }),
      childEnv({ event: 'done', data: { stop_reason: 'completed', iterations: 2 } }),
    ]);
    expect(d.threads.parent!.approvals).toEqual([]);
    expect(d.threads.parent!.subagents!.call_t).toEqual({
      agent: 'researcher',
      threadId: 'child',
      status: 'done',
    });
    expect(d.threads.parent!.running).toBe(false);
  });

  it("brings a subagent's MCP question to the parent, named, and its outcome line with it", () => {
    const request = {
      elicitation_id: 'q1',
      server: 'demo',
      message: 'Sign in to Demo',
      mode: 'url' as const,
      url: 'https://login.example.test/authorize?client=demo',
      tool_call_id: 'call_x',
    };
    let d = applyEvents({ threads: {}, lastSeq: 0 }, [
      childEnv({ event: 'on_run_start', data: { workspace: '/w', model: 'm' } }),
      childEnv({ event: 'on_elicitation_request', data: request }),
    ]);
    expect(d.threads.parent!.elicitations).toEqual([{ ...request, agent: 'researcher' }]);
    expect(d.threads.parent!.subagents!.call_t!.activity).toBe('waiting for your answer');
    expect(d.threads.child!.elicitations).toEqual([request]);

    const outcome = {
      elicitation_id: 'q1',
      server: 'demo',
      message: 'Sign in to Demo',
      action: 'accept' as const,
      answered_by: 'user' as const,
    };
    d = applyEvents(d, [childEnv({ event: 'on_elicitation_resolved', data: outcome })]);
    expect(d.threads.parent!.elicitations).toEqual([]);
    expect(d.threads.parent!.subagents!.call_t!.activity).toBeUndefined();
    expect(d.threads.parent!.notices.map((n) => n.elicitation)).toEqual([outcome]);
    expect(d.threads.child!.notices.map((n) => n.elicitation)).toEqual([outcome]);

    // One the parent never showed (a hook answered it) is told in the child thread only.
    d = applyEvents(d, [
      childEnv({
        event: 'on_elicitation_resolved',
        data: { ...outcome, elicitation_id: 'q2', answered_by: 'hook', hook: 'autofill' },
      }),
    ]);
    expect(d.threads.parent!.notices).toHaveLength(1);
    expect(d.threads.child!.notices).toHaveLength(2);
  });

  it('after a reload, cards come from the child threads; live entries are kept', () => {
    const live = { call_a: { agent: 'a', threadId: 'c1', status: 'running' as const } };
    expect(
      subagentsFromChildren(
        [
          {
            thread_id: 'c1',
            title: '',
            workspace: '/w',
            created_at: 0,
            updated_at: 0,
            message_count: 2,
            agent: 'a',
            parent_thread_id: 'p',
            parent_tool_call_id: 'call_a',
          },
          {
            thread_id: 'c2',
            title: '',
            workspace: '/w',
            created_at: 0,
            updated_at: 0,
            message_count: 2,
            agent: 'b',
            parent_thread_id: 'p',
            parent_tool_call_id: 'call_b',
          },
        ],
        live,
      ),
    ).toEqual({ ...live, call_b: { agent: 'b', threadId: 'c2' } });
    expect(
      loadThread(
        { threads: {}, lastSeq: 0 },
        { thread_id: 'p', messages: [], todos: [], files: {} },
        false,
      ).threads.p!.subagents,
    ).toBeUndefined();
  });

  it("puts a subagent's live spans in its parent's trace too", () => {
    const span = {
      span_id: 's1',
      trace_id: 't',
      thread_id: 'child',
      run_id: 'r2',
      name: 'invoke_agent researcher',
      kind: 'agent',
      start_ms: 1,
      status: { code: 'UNSET' },
      attributes: {},
      events: [],
    } as SpanRecord;
    const t = applySpanEvents({ threads: {} }, [
      childEnv({ event: 'on_span_start', data: { span } }),
    ]);
    expect(Object.keys(t.threads).sort()).toEqual(['child', 'parent']);
    expect(t.threads.parent!.spans[0]!.span_id).toBe('s1');
  });
});

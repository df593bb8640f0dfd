import { describe, expect, it } from 'vitest';
import {
  applyEvent,
  applyEvents,
  loadThread,
  toolRunFromMessage,
} from '../../../src/renderer/stores/apply-event.ts';
import type { ChatData } from '../../../src/renderer/stores/chat-types.ts';
import { TOOL_STATUS_LABEL } from '../../../src/renderer/features/chat/tool-status.ts';
import { buildRows } from '../../../src/renderer/features/chat/rows.ts';
import { streamText } from '../../../src/renderer/stores/stream-text.ts';
import type { AgentEventEnvelope } from '../../../src/shared/ipc/contract.ts';
import type { Message, RunEvent, ToolStatus } from '../../../src/shared/types/index.ts';

const T = 'th1';
let seq = 0;
const env = (event: RunEvent): AgentEventEnvelope => ({
  seq: ++seq,
  event: { ...event, run_id: 'r1', thread_id: T },
});
const empty = (): ChatData => ({ threads: {}, lastSeq: 0 });

function run(events: AgentEventEnvelope[], start = empty()) {
  return applyEvents(start, events);
}

describe('applyEvent', () => {
  it('streams text, then replaces it with the stored message and keeps usage per turn', () => {
    let d = run([
      env({ event: 'on_run_start', data: { workspace: '/w', model: 'm' } }),
      env({ event: 'on_message', data: { index: 0, message: { role: 'user', content: 'hi' } } }),
      env({ event: 'on_chat_model_stream', data: { delta: 'Hel' } }),
      env({ event: 'on_chat_model_stream', data: { delta: 'lo' } }),
    ]);
    expect(streamText(d.threads[T]!.streaming)).toBe('Hello');
    expect(d.threads[T]!.running).toBe(true);
    const streamingRow = buildRows(d.threads[T]!).at(-1)!;
    expect(streamingRow.kind).toBe('streaming');
    d = run(
      [
        env({
          event: 'on_message',
          data: { index: 1, message: { role: 'assistant', content: 'Hello' } },
        }),
        env({
          event: 'on_model_end',
          data: { content: 'Hello', tool_calls: [], usage: { input_tokens: 10, output_tokens: 2 } },
        }),
        env({ event: 'done', data: { stop_reason: 'completed', iterations: 1 } }),
      ],
      d,
    );
    const t = d.threads[T]!;
    expect(streamText(t.streaming)).toBe('');
    expect(t.running).toBe(false);
    expect(t.usage[1]).toEqual({ input_tokens: 10, output_tokens: 2 });
    expect(buildRows(t).map((r) => r.kind)).toEqual(['user', 'assistant']);
    // The answer keeps the streaming row's key, so the list keeps its rendered blocks.
    expect(buildRows(t).at(-1)!.key).toBe(streamingRow.key);
    expect(d.lastSeq).toBe(seq);
  });

  it('tracks parallel tool calls through approval, deny and end', () => {
    const calls = [
      { id: 'a', name: 'ls', args: { path: '.' } },
      { id: 'b', name: 'write_file', args: { path: 'x', content: 'y' } },
    ];
    let d = run([
      env({ event: 'on_message', data: { index: 0, message: { role: 'user', content: 'go' } } }),
      env({
        event: 'on_message',
        data: { index: 1, message: { role: 'assistant', content: '', tool_calls: calls } },
      }),
      env({ event: 'on_tool_pending', data: { tool_call_id: 'a', tool_name: 'ls' } }),
      env({ event: 'on_tool_pending', data: { tool_call_id: 'b', tool_name: 'write_file' } }),
      env({ event: 'on_tool_start', data: { tool_call_id: 'a', args: {} } }),
      env({
        event: 'on_approval_request',
        data: { approval_id: 'ap1', tool_call: calls[1], kind: 'write', preview: 'write x' },
      }),
      env({ event: 'on_tool_start', data: { tool_call_id: 'b', args: {} } }),
    ]);
    expect(d.threads[T]!.tools.a!.status).toBe('running');
    expect(d.threads[T]!.tools.b!.status).toBe('awaiting_approval');
    expect(d.threads[T]!.approvals).toHaveLength(1);
    d = run(
      [
        env({
          event: 'on_tool_end',
          data: { tool_call_id: 'a', output: 'README.md', status: 'ok', duration_ms: 5 },
        }),
        env({ event: 'on_approval_resolved', data: { approval_id: 'ap1', decision: 'deny' } }),
        env({
          event: 'on_tool_end',
          data: {
            tool_call_id: 'b',
            output: '',
            error: 'the user denied write_file',
            status: 'denied',
            duration_ms: 900,
          },
        }),
      ],
      d,
    );
    const t = d.threads[T]!;
    expect(t.approvals).toHaveLength(0);
    expect(t.tools.a).toMatchObject({ status: 'done', output: 'README.md', durationMs: 5 });
    expect(t.tools.b).toMatchObject({ status: 'denied', error: 'the user denied write_file' });
    const rows = buildRows(t);
    expect(rows.find((r) => r.kind === 'tools')).toMatchObject({ calls });
  });

  it('shows a hook block on a message and on a tool call', () => {
    const d = run([
      env({
        event: 'on_message',
        data: { index: 0, message: { role: 'user', content: 'rm -rf' } },
      }),
      env({ event: 'on_blocked', data: { by: 'guard', reason: 'no deleting', target: 'message' } }),
      env({
        event: 'on_blocked',
        data: { by: 'guard', reason: 'not that file', target: 'tool_call', tool_call_id: 'c1' },
      }),
      env({ event: 'done', data: { stop_reason: 'blocked', iterations: 0 } }),
    ]);
    const t = d.threads[T]!;
    expect(t.notices[0]).toMatchObject({
      kind: 'blocked',
      by: 'guard',
      text: 'no deleting',
      afterIndex: 0,
    });
    expect(t.tools.c1).toMatchObject({ status: 'blocked', reason: 'not that file' });
  });

  it('updates todos and marks cancelled runs', () => {
    const todos = [{ id: '1', title: 'a', status: 'done' as const }];
    const d = run([
      env({ event: 'on_todos', data: { todos } }),
      env({ event: 'on_tool_start', data: { tool_call_id: 'z', args: {} } }),
      env({ event: 'done', data: { stop_reason: 'cancelled', iterations: 1 } }),
    ]);
    expect(d.threads[T]!.todos).toEqual(todos);
    expect(d.threads[T]!.tools.z!.status).toBe('cancelled');
    expect(d.threads[T]!.notices.at(-1)!.kind).toBe('cancelled');
  });

  it('flags a gap instead of inventing messages, and loadThread resyncs', () => {
    const d = run([
      env({
        event: 'on_message',
        data: { index: 5, message: { role: 'assistant', content: 'x' } },
      }),
    ]);
    expect(d.threads[T]!.stale).toBe(true);
    const loaded = loadThread(
      d,
      {
        thread_id: T,
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: '', tool_calls: [{ id: 'k', name: 'execute', args: {} }] },
          {
            role: 'tool',
            content: 'Error: the user denied execute',
            tool_call_id: 'k',
            status: 'denied',
          },
        ],
        todos: [],
        files: {},
      },
      false,
    );
    expect(loaded.threads[T]!.stale).toBe(false);
    expect(loaded.threads[T]!.tools.k!.status).toBe('denied');
  });

  it('is pure', () => {
    const frozen = Object.freeze({ ...empty(), threads: Object.freeze({}) }) as ChatData;
    const d = applyEvent(frozen, env({ event: 'on_chat_model_stream', data: { delta: 'x' } }));
    expect(streamText(d.threads[T]!.streaming)).toBe('x');
    expect(frozen.threads).toEqual({});
    expect(frozen.lastSeq).toBe(0);
  });

  it('reads a stored tool message status from the message, not from its text', () => {
    const tool = (content: string, status?: ToolStatus) => ({
      role: 'tool' as const,
      content,
      tool_call_id: 'x',
      ...(status ? { status } : {}),
    });
    expect(toolRunFromMessage(tool('fine', 'ok'))).toEqual({ status: 'done', output: 'fine' });
    expect(toolRunFromMessage(tool('Error: the user denied execute', 'error'))).toMatchObject({
      status: 'error',
      error: 'the user denied execute',
    });
    expect(toolRunFromMessage(tool('Error: cancelled: the user stopped', 'error')).status).toBe(
      'error',
    );
    expect(toolRunFromMessage(tool('Error: timed out after 30 s\npartial', 'timeout'))).toEqual({
      status: 'timeout',
      error: 'timed out after 30 s',
      output: 'partial',
    });
    // A tool whose own output starts with "Error: " still succeeded.
    expect(toolRunFromMessage(tool('Error: in the log file', 'ok'))).toEqual({
      status: 'done',
      output: 'Error: in the log file',
    });
  });

  it('reads messages stored before tool messages had a status: Error-prefixed is a failure, the rest done', () => {
    expect(toolRunFromMessage({ role: 'tool', content: 'fine', tool_call_id: 'x' }).status).toBe(
      'done',
    );
    expect(
      toolRunFromMessage({ role: 'tool', content: 'Error: boom\nstack', tool_call_id: 'x' }),
    ).toEqual({ status: 'error', error: 'boom', output: 'stack' });
    expect(
      toolRunFromMessage({
        role: 'tool',
        content: 'Error: the user denied execute',
        tool_call_id: 'x',
      }).status,
    ).toBe('error');
  });

  it('handles a 5,000-message thread and a 10,000-delta stream quickly', () => {
    const messages = Array.from({ length: 5000 }, (_, i) => ({
      role: i % 2 ? ('assistant' as const) : ('user' as const),
      content: `message ${i}`,
    }));
    const started = performance.now();
    let d = loadThread(empty(), { thread_id: T, messages, todos: [], files: {} }, true);
    const deltas = Array.from({ length: 10_000 }, () =>
      env({ event: 'on_chat_model_stream', data: { delta: 'x' } }),
    );
    d = applyEvents(d, deltas);
    const rows = buildRows(d.threads[T]!);
    expect(rows).toHaveLength(5001);
    expect(streamText(d.threads[T]!.streaming)).toBe('x'.repeat(10_000));
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('loadThread during a run', () => {
  it('keeps newer streamed messages over an older snapshot and restores pending approvals', () => {
    const call = { id: 'w1', name: 'write_file', args: { path: 'a' } };
    let d = applyEvents({ threads: {}, lastSeq: 0 }, [
      env({ event: 'on_message', data: { index: 0, message: { role: 'user', content: 'go' } } }),
      env({
        event: 'on_message',
        data: { index: 1, message: { role: 'assistant', content: '', tool_calls: [call] } },
      }),
    ]);
    d = loadThread(
      d,
      { thread_id: T, messages: [{ role: 'user', content: 'go' }], todos: [], files: {} },
      true,
      [{ approval_id: 'ap', tool_call: call, kind: 'write', preview: 'write a' }],
    );
    const t = d.threads[T]!;
    expect(t.messages).toHaveLength(2);
    expect(t.approvals.map((a) => a.approvalId)).toEqual(['ap']);
    expect(t.tools.w1!.status).toBe('awaiting_approval');
    const idle = loadThread(
      d,
      { thread_id: T, messages: [{ role: 'user', content: 'go' }], todos: [], files: {} },
      false,
    );
    expect(idle.threads[T]!.messages).toHaveLength(1);
    expect(idle.threads[T]!.approvals).toEqual([]);
  });
});

describe('tool outcome from data, live and after a reload', () => {
  const call = { id: 'c1', name: 'read_file', args: { path: 'secret.txt' } };
  const opening = (): AgentEventEnvelope[] => [
    env({ event: 'on_message', data: { index: 0, message: { role: 'user', content: 'read it' } } }),
    env({
      event: 'on_message',
      data: { index: 1, message: { role: 'assistant', content: '', tool_calls: [call] } },
    }),
    env({ event: 'on_tool_pending', data: { tool_call_id: 'c1', tool_name: 'read_file' } }),
    env({ event: 'on_tool_start', data: { tool_call_id: 'c1', args: call.args } }),
  ];
  /** The live run ending the call with `status`, then the same thread rebuilt from what was stored. */
  function liveAndReloaded(status: ToolStatus, error: string, before: RunEvent[] = []) {
    const stored: Message = {
      role: 'tool',
      content: `Error: ${error}`,
      tool_call_id: 'c1',
      name: 'read_file',
      status,
    };
    const live = run([
      ...opening(),
      ...before.map(env),
      env({
        event: 'on_tool_end',
        data: { tool_call_id: 'c1', output: '', error, status, duration_ms: 3 },
      }),
      env({ event: 'on_message', data: { index: 2, message: stored } }),
      env({ event: 'done', data: { stop_reason: 'completed', iterations: 2 } }),
    ]).threads[T]!.tools.c1!;
    const messages: Message[] = [
      { role: 'user', content: 'read it' },
      { role: 'assistant', content: '', tool_calls: [call] },
      stored,
    ];
    const reloaded = loadThread(empty(), { thread_id: T, messages, todos: [], files: {} }, false)
      .threads[T]!.tools.c1!;
    return { live, reloaded };
  }

  it('a tool failing with EACCES ("permission denied") shows Failed live and after a reload', () => {
    const { live, reloaded } = liveAndReloaded(
      'error',
      "EACCES: permission denied, open '/w/secret.txt'",
    );
    expect(live).toMatchObject({
      status: 'error',
      error: "EACCES: permission denied, open '/w/secret.txt'",
    });
    expect(reloaded).toMatchObject({
      status: 'error',
      error: "EACCES: permission denied, open '/w/secret.txt'",
    });
    expect(TOOL_STATUS_LABEL[live.status]).toBe('Failed');
    expect(TOOL_STATUS_LABEL[reloaded.status]).toBe('Failed');
  });

  it("a user's deny shows Denied as soon as it is given, after the call ends and after a reload", () => {
    const asked: RunEvent[] = [
      {
        event: 'on_approval_request',
        data: { approval_id: 'ap', tool_call: call, kind: 'write', preview: 'read secret' },
      },
      { event: 'on_approval_resolved', data: { approval_id: 'ap', decision: 'deny' } },
    ];
    const atDeny = run([...opening(), ...asked.map(env)]).threads[T]!.tools.c1!;
    expect(atDeny.status).toBe('denied');
    const { live, reloaded } = liveAndReloaded('denied', 'not allowed here', asked);
    expect(live.status).toBe('denied');
    expect(reloaded.status).toBe('denied');
    expect(TOOL_STATUS_LABEL[live.status]).toBe('Denied');
  });

  it('a call blocked by a hook shows Blocked with the reason, and after a reload', () => {
    const blocked: RunEvent = {
      event: 'on_blocked',
      data: { by: 'guard', reason: 'secrets stay closed', target: 'tool_call', tool_call_id: 'c1' },
    };
    const { live, reloaded } = liveAndReloaded('blocked', 'secrets stay closed', [blocked]);
    expect(live).toMatchObject({ status: 'blocked', reason: 'secrets stay closed' });
    expect(reloaded.status).toBe('blocked');
    expect(TOOL_STATUS_LABEL[live.status]).toBe('Blocked');
  });

  it('cancelled and timed-out calls show as such whatever their error text says', () => {
    const cancelled = liveAndReloaded('cancelled', 'permission denied while stopping');
    expect([cancelled.live.status, cancelled.reloaded.status]).toEqual(['cancelled', 'cancelled']);
    expect(TOOL_STATUS_LABEL[cancelled.live.status]).toBe('Cancelled');
    const timeout = liveAndReloaded('timeout', 'command ran longer than 120 s');
    expect([timeout.live.status, timeout.reloaded.status]).toEqual(['timeout', 'timeout']);
    expect(TOOL_STATUS_LABEL[timeout.live.status]).toBe('Timed out');
  });

  it('a call that ended ok shows Done even when its output mentions an error', () => {
    const d = run([
      ...opening(),
      env({
        event: 'on_tool_end',
        data: {
          tool_call_id: 'c1',
          output: 'Error: permission denied (from the log)',
          status: 'ok',
          duration_ms: 1,
        },
      }),
    ]);
    expect(d.threads[T]!.tools.c1).toMatchObject({
      status: 'done',
      output: 'Error: permission denied (from the log)',
    });
    expect(TOOL_STATUS_LABEL.done).toBe('Done');
  });

  it('a hook message is a notice, and a rewritten call keeps the args that ran and the hook', () => {
    const d = run([
      env({ event: 'on_message', data: { index: 0, message: { role: 'user', content: 'go' } } }),
      env({
        event: 'on_hook_message',
        data: { hook: 'lint.sh', event: 'PreToolUse', message: 'lint is slow', kind: 'message' },
      }),
      env({
        event: 'on_tool_end',
        data: {
          tool_call_id: 'c1',
          output: 'two',
          status: 'ok',
          duration_ms: 2,
          args: { command: 'echo two' },
          rewritten_by: 'dry-run.sh',
        },
      }),
      env({
        event: 'on_hook_message',
        data: { hook: 'freeze.sh', event: 'PreToolUse', message: 'frozen', kind: 'stop' },
      }),
    ]);
    const t = d.threads[T]!;
    expect(t.notices.map((n) => [n.kind, n.text])).toEqual([
      ['warning', 'Hook lint.sh: lint is slow'],
      ['warning', 'Run stopped by hook freeze.sh: frozen'],
    ]);
    expect(t.tools.c1).toMatchObject({
      ranArgs: { command: 'echo two' },
      rewrittenBy: 'dry-run.sh',
    });
  });

  it('a retried call shows its attempt while it waits, and keeps the one that ended it', () => {
    const waiting = run([
      env({ event: 'on_message', data: { index: 0, message: { role: 'user', content: 'go' } } }),
      env({ event: 'on_tool_start', data: { tool_call_id: 'c1', args: {} } }),
      env({
        event: 'on_tool_retry',
        data: {
          tool_call_id: 'c1',
          attempt: 2,
          max_attempts: 3,
          kind: 'retryable',
          delay_ms: 1500,
          error: 'HTTP 503',
        },
      }),
    ]);
    expect(waiting.threads[T]!.tools.c1).toMatchObject({
      status: 'running',
      attempts: { n: 2, max: 3 },
      retrying: 'retrying in 1.5 s: HTTP 503',
    });
    const d = run([
      env({ event: 'on_message', data: { index: 0, message: { role: 'user', content: 'go' } } }),
      env({
        event: 'on_tool_end',
        data: {
          tool_call_id: 'c1',
          output: 'ok',
          status: 'ok',
          duration_ms: 3,
          attempts: { n: 2, max: 3 },
        },
      }),
    ]);
    expect(d.threads[T]!.tools.c1).toMatchObject({ status: 'done', attempts: { n: 2, max: 3 } });
  });
  it('shows a running hook from its on_hook_start until its on_hook_end, and none after the run', () => {
    const start = (call: string, message?: string) =>
      env({
        event: 'on_hook_start',
        data: { hook: 'lint', event: 'PostToolUse', call, ...(message ? { message } : {}) },
      });
    const end = (call: string) =>
      env({
        event: 'on_hook_end',
        data: { hook: 'lint', event: 'PostToolUse', duration_ms: 1200, ok: true, call },
      });
    let d = run([
      env({ event: 'on_run_start', data: { workspace: '/w', model: 'm' } }),
      start('c1', 'Linting the file…'),
      start('c2'),
    ]);
    expect(d.threads[T]!.runningHooks).toEqual([
      { call: 'c1', hook: 'lint', event: 'PostToolUse', message: 'Linting the file…' },
      { call: 'c2', hook: 'lint', event: 'PostToolUse' },
    ]);
    d = run([end('c1')], d);
    expect(d.threads[T]!.runningHooks?.map((h) => h.call)).toEqual(['c2']);
    d = run([env({ event: 'done', data: { stop_reason: 'cancelled', iterations: 0 } })], d);
    expect(d.threads[T]!.runningHooks).toBeUndefined();
  });
});

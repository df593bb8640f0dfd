import { describe, expect, it } from 'vitest';
import { ApprovalBroker, createApprovalHook, needsApproval } from '../../../src/main/middleware/approval.ts';
import { runAgentLoop } from '../../../src/main/agent/loop.ts';
import { createPipeline } from '../../../src/main/pipeline/run-phase.ts';
import type { ApprovalMode } from '../../../src/shared/types/index.ts';
import { harness, scriptedLlm, testTool } from '../agent/loop-harness.ts';

function setup(mode: ApprovalMode, interactive: boolean, answers = 1) {
  const ran: string[] = [];
  const tools = [
    testTool('read_it', 'read', async () => (ran.push('read'), 'read ok')),
    testTool('write_it', 'write', async () => (ran.push('write'), 'write ok')),
    testTool('run_it', 'execute', async () => (ran.push('run'), 'run ok')),
  ];
  const turns = Array.from({ length: answers }, (_, i) => ({
    tool_calls: [
      { id: `r${i}`, name: 'read_it', args: {} },
      { id: `w${i}`, name: 'write_it', args: {} },
      { id: `x${i}`, name: 'run_it', args: {} },
    ],
  }));
  const llm = scriptedLlm([...turns, { content: 'done' }]);
  const broker = new ApprovalBroker();
  const h = harness(llm, tools);
  const hooks = [h.toolHook, createApprovalHook({ mode, broker, interactive })];
  const run = () => runAgentLoop({ ctx: h.ctx, pipeline: createPipeline(hooks), maxIterations: 10, append: h.append, replaceMessages: h.replace });
  return { h, broker, ran, run };
}

describe('approval policy', () => {
  it('knows which kinds need approval in each mode', () => {
    expect(needsApproval('ask', 'read')).toBe(false);
    expect(needsApproval('ask', 'write')).toBe(true);
    expect(needsApproval('auto-edit', 'write')).toBe(false);
    expect(needsApproval('auto-edit', 'execute')).toBe(true);
    expect(needsApproval('auto', 'execute')).toBe(false);
  });

  it('refuses writes and commands when nobody can be asked (CLI without --auto), reads still run', async () => {
    const { h, ran, run } = setup('ask', false);
    await run();
    expect(ran).toEqual(['read']);
    const results = h.state.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[1]).toMatch(/the user did not allow write_it.*--auto/);
    expect(results[2]).toMatch(/the user did not allow run_it/);
  });

  it('asks, waits, and honours allow once, deny and allow for this thread', async () => {
    const { h, broker, ran, run } = setup('ask', true, 2);
    const decisions = ['allow_thread', 'deny'] as const;
    let i = 0;
    h.ctx.emit = (e) => {
      h.events.push(e);
      if (e.event === 'on_approval_request') {
        const id = e.data.approval_id;
        queueMicrotask(() => broker.answer(id, decisions[i++] ?? 'allow_once'));
      }
    };
    await run();
    expect(broker.pendingFor(h.ctx.threadId)).toEqual([]);
    const requests = h.events.filter((e) => e.event === 'on_approval_request');
    // Round 1 asks for write (allowed for the thread) and run (denied); round 2 asks only for run.
    expect(requests.map((e) => e.name)).toEqual(['write_it', 'run_it', 'run_it']);
    expect(ran.sort()).toEqual(['read', 'read', 'run', 'write', 'write']);
    const results = h.state.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[2]).toBe('Error: the user denied run_it');
    expect(results[5]).toBe('run ok');
  });

  it('cancel while waiting for approval ends the run cleanly', async () => {
    const { h, broker, run } = setup('ask', true);
    let waiting: unknown[] = [];
    h.ctx.emit = (e) => {
      h.events.push(e);
      if (e.event === 'on_approval_request') {
        waiting = broker.pendingFor(h.ctx.threadId);
        queueMicrotask(() => h.controller.abort());
      }
    };
    const summary = await run();
    expect(summary.stop_reason).toBe('cancelled');
    // Both parallel calls were waiting, oldest first, with what the prompt shows.
    expect(waiting).toMatchObject([{ tool_call: { name: 'write_it' }, kind: 'write' }, { tool_call: { name: 'run_it' }, kind: 'execute', preview: 'run_it {}' }]);
    expect(broker.pendingFor(h.ctx.threadId)).toEqual([]);
    expect(h.state.messages.filter((m) => m.role === 'tool')).toHaveLength(3);
  });

  it('auto mode runs everything without asking', async () => {
    const { h, ran, run } = setup('auto', false);
    await run();
    expect(ran.sort()).toEqual(['read', 'run', 'write']);
    expect(h.events.some((e) => e.event === 'on_approval_request')).toBe(false);
  });
});

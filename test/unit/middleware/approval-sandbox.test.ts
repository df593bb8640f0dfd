import { describe, expect, it } from 'vitest';
import {
  ApprovalBroker,
  createApprovalHook,
  needsApproval,
} from '../../../src/main/middleware/approval.ts';
import { runAgentLoop } from '../../../src/main/agent/loop.ts';
import { createPipeline } from '../../../src/main/pipeline/run-phase.ts';
import {
  takeNetworkGrant,
  type SandboxAvailability,
} from '../../../src/main/tools/sandbox/index.ts';
import {
  DEFAULT_SETTINGS,
  type ApprovalDecision,
  type SandboxSettings,
} from '../../../src/shared/types/index.ts';
import { harness, scriptedLlm, testTool } from '../agent/loop-harness.ts';

const bwrap: SandboxAvailability = {
  available: true,
  engine: 'bubblewrap',
  program: '/usr/bin/bwrap',
};

async function runCommand(sandbox: SandboxSettings, answer?: ApprovalDecision) {
  const ran: string[] = [];
  const tools = [testTool('run_it', 'execute', async () => (ran.push('run'), 'run ok'))];
  const llm = scriptedLlm([
    { tool_calls: [{ id: 'x1', name: 'run_it', args: {} }] },
    { content: 'done' },
  ]);
  const h = harness(llm, tools);
  const ctx = { ...h.ctx, settings: { ...DEFAULT_SETTINGS, sandbox } };
  const broker = new ApprovalBroker();
  const asked: string[] = [];
  ctx.emit = (e) => {
    if (e.event !== 'on_approval_request') return;
    asked.push(e.data.tool_call.id);
    queueMicrotask(() => broker.answer(e.data.approval_id, answer ?? 'deny'));
  };
  const hook = createApprovalHook({
    mode: 'auto-edit',
    broker,
    interactive: answer !== undefined,
    detectSandbox: async () => bwrap,
  });
  await runAgentLoop({
    ctx,
    pipeline: createPipeline([h.toolHook, hook]),
    maxIterations: 5,
    append: h.append,
    replaceMessages: h.replace,
  });
  const results = h.state.messages.filter((m) => m.role === 'tool').map((m) => m.content);
  return { ran, asked, results, state: h.state };
}

describe('approval with the command sandbox', () => {
  it('lets a sandboxed command run without asking under auto-edit, even with nobody to ask', async () => {
    const r = await runCommand({ mode: 'auto', network: false });
    expect(r.ran).toEqual(['run']);
    expect(r.asked).toEqual([]);
  });

  it('asks for an unsandboxed command under auto-edit', async () => {
    const refused = await runCommand({ mode: 'off', network: false });
    expect(refused.ran).toEqual([]);
    expect(refused.results[0]).toMatch(/the user did not allow run_it/);
    const asked = await runCommand({ mode: 'off', network: false }, 'allow_once');
    expect(asked.asked).toEqual(['x1']);
    expect(asked.ran).toEqual(['run']);
  });

  it('"allow with network" runs the call and opens the network for that call only', async () => {
    expect(needsApproval('ask', 'execute', true)).toBe(true);
    const r = await runCommand({ mode: 'off', network: false }, 'allow_network');
    expect(r.ran).toEqual(['run']);
    expect(takeNetworkGrant(r.state, 'x1')).toBe(true);
    expect(takeNetworkGrant(r.state, 'x1')).toBe(false);
  });
});

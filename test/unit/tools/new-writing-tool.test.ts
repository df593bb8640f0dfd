/**
 * A writing tool added by someone who has never read the approval code: its definition (schema and
 * effects) is all it takes for approval and the protected paths to cover it.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ApprovalBroker, createApprovalHook } from '../../../src/main/middleware/approval.ts';
import { runAgentLoop } from '../../../src/main/agent/loop.ts';
import { createPipeline } from '../../../src/main/pipeline/run-phase.ts';
import { defineTool } from '../../../src/main/tools/types.ts';
import type {
  ApprovalDecision,
  ApprovalMode,
  RunEvent,
} from '../../../src/shared/types/index.ts';
import { harness, scriptedLlm } from '../agent/loop-harness.ts';

function appendLineTool(written: string[]) {
  return defineTool({
    name: 'append_line',
    description: 'Append one line to a file',
    parameters: z.object({ file: z.string(), line: z.string() }),
    effects: (args) => ({ writes: [args.file] }),
    async execute(args) {
      written.push(args.file);
      return 'appended';
    },
  });
}

async function runCalls(
  mode: ApprovalMode,
  interactive: boolean,
  files: string[],
  answer: ApprovalDecision = 'allow_once',
) {
  const written: string[] = [];
  const calls = files.map((file, i) => ({
    id: `c${i}`,
    name: 'append_line',
    args: { file, line: 'x' },
  }));
  const h = harness(scriptedLlm([{ tool_calls: calls }, { content: 'done' }]), [
    appendLineTool(written),
  ]);
  const broker = new ApprovalBroker();
  const asked: RunEvent[] = [];
  h.ctx.emit = (e) => {
    h.events.push(e);
    if (e.event !== 'on_approval_request') return;
    asked.push(e);
    queueMicrotask(() => broker.answer(e.data.approval_id, answer));
  };
  await runAgentLoop({
    ctx: h.ctx,
    pipeline: createPipeline([h.toolHook, createApprovalHook({ mode, broker, interactive })]),
    maxIterations: 5,
    append: h.append,
    replaceMessages: h.replace,
  });
  const results = h.state.messages.filter((m) => m.role === 'tool');
  return { written, asked, results };
}

describe('a new writing tool, defined in two lines of policy', () => {
  it('is protected by default: a write into .git or a workbench hook needs a person even in auto mode', async () => {
    const r = await runCalls('auto', false, [
      'notes.md',
      '.git/hooks/pre-commit',
      '.workbench/hooks/guard',
    ]);
    expect(r.written).toEqual(['notes.md']);
    expect(r.results.map((m) => m.status)).toEqual(['ok', 'denied', 'denied']);
    expect(r.results[1].content).toMatch(/\.git\/hooks\/pre-commit is inside \.git/);
    expect(r.results[2].content).toMatch(/is a workbench hook/);
  });

  it("follows the approval mode like write_file: asked in 'ask', refused when nobody can answer", async () => {
    const refused = await runCalls('ask', false, ['notes.md']);
    expect(refused.written).toEqual([]);
    expect(refused.results[0]).toMatchObject({ status: 'denied' });
    expect(refused.results[0].content).toMatch(/may not change files/);

    const denied = await runCalls('ask', true, ['notes.md'], 'deny');
    expect(denied.written).toEqual([]);
    expect(denied.asked[0].data).toMatchObject({
      kind: 'write',
      preview: 'append_line {"file":"notes.md","line":"x"}',
    });
    expect(denied.results[0]).toMatchObject({
      status: 'denied',
      content: 'Error: the user denied append_line',
    });

    const allowed = await runCalls('auto-edit', false, ['notes.md']);
    expect(allowed.written).toEqual(['notes.md']);
  });
});
